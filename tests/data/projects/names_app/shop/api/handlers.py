"""asyncio.shield() of coroutines of other modules (issue 32): a coroutine function
imported relatively, a method of a base class, a method of an attribute or a
local whose class is written down or made there."""
import asyncio
from typing import Any, Optional

from .. import util
from ..base import BaseService
from ..util import Connection, close_client, closing


class Handler(BaseService):
    conn: Optional[Connection] = None

    def __init__(self, other: Connection) -> None:
        self.other = other

    async def shutdown(self, client: Any) -> None:
        await asyncio.shield(close_client(client))  # error: TRF004:15
        await asyncio.shield(util.close_client(client))  # error: TRF004:15
        await asyncio.shield(self.stop())  # error: TRF004:15
        if self.conn is not None:
            await asyncio.shield(self.conn.terminate())  # error: TRF004:19
        await asyncio.shield(self.other.terminate())  # error: TRF004:15
        local = Connection()
        await asyncio.shield(local.terminate())  # error: TRF004:15

    async def futures(self, client: Any) -> None:
        await asyncio.shield(closing(client))
        await asyncio.shield(self.stopped())
        await asyncio.shield(self.other.closed())
        local = Connection()
        await asyncio.shield(local.closed())

    def kept(self) -> "asyncio.Future[None]":
        self._stopping = asyncio.shield(self.stop())
        return asyncio.shield(self.other.terminate())
