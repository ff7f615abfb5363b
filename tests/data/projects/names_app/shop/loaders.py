"""asyncio re-exported by a module of the project whose optional imports fall back
to a stub when missing (splitio's loaders, a miss of the thirty-sixth trial's
sweep): the stub runs only when the import failed, so ``asyncio`` stands for
asyncio.  A fallback in a handler of another exception (``except Exception:``)
keeps the name bound twice: nothing is said of it."""
try:
    import asyncio
    import json
except ImportError:
    def _missing(*_: object, **__: object) -> None:
        raise NotImplementedError("install the asyncio extra")

    asyncio = _missing  # type: ignore[assignment]
    json = _missing  # type: ignore[assignment]

try:
    import asyncio as aio
except (ImportError, RuntimeError):
    aio = None  # type: ignore[assignment]

try:
    import asyncio as anything
except Exception:
    anything = None  # type: ignore[assignment]

try:
    from accel_outside_the_project import spawn  # type: ignore[import-not-found]
except ImportError:
    def spawn(coro: object) -> object:  # a working alternative: ``spawn`` stays bound twice
        return asyncio.ensure_future(coro)  # type: ignore[arg-type]
