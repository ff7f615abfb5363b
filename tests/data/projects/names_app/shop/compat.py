"""asyncio's spawners under the project's names, as compatibility modules bind them."""
import asyncio
import sys

if sys.version_info >= (3, 7):
    create_task = asyncio.create_task
else:  # pragma: no cover - very old Pythons
    create_task = asyncio.ensure_future

try:
    spawn = asyncio.create_task
except AttributeError:  # pragma: no cover
    spawn = asyncio.ensure_future

ensure = asyncio.ensure_future

if sys.version_info >= (3, 7):
    either = asyncio.create_task
else:  # pragma: no cover
    either = print
