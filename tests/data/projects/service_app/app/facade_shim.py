"""A facade whose ``asyncio`` is the project's shim, not asyncio."""
from app.compat import asyncio

__all__ = ["asyncio"]
