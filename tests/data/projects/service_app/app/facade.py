"""A module that re-exports asyncio and the helpers of another (what tests
patch: ``facade.asyncio``, ``facade.submit``)."""
import asyncio

from app.submitting import fire, fire_kept, submit

__all__ = ["asyncio", "fire", "fire_kept", "submit"]
