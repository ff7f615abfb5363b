"""asyncio's timeout under another module's name, as compatibility modules do."""
import asyncio
import sys

if sys.version_info >= (3, 11):
    from asyncio import timeout
else:  # pragma: no cover - the backport
    from async_timeout import timeout

wait_for = asyncio.wait_for

__all__ = ["timeout", "wait_for"]
