"""A package whose module ``asyncio`` is a shim of the project (``shims/asyncio.py``)."""
