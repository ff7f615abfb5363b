"""A helper of another module that returns ``asyncio.ensure_future(param)`` (dask-gateway-server's
``TaskPool.spawn``): a call that gives it a coroutine and drops what it returns is reported."""
