"""A local whose class is written down (``player: Player | None = ...``), bound
once in its function, is typed as a parameter is: a spawn of a coroutine method
of it that never waits is silent, one of a method that waits is reported.  A
local annotated and bound again, or annotated with a class the analysis cannot
read, is not typed."""
import asyncio
from typing import Optional


class Player:
    async def update(self, state: str) -> None:  # never waits
        self.state = state

    async def play(self) -> None:
        await asyncio.sleep(1)


class Socket:
    def get_player(self, key: str) -> "Player | None":
        return None

    def on_update(self, key: str, state: str) -> None:
        player: Player | None = self.get_player(key)
        if player:
            asyncio.create_task(player.update(state))
            asyncio.create_task(player.play())  # error: TRF001:13

    def on_start(self, key: str, state: str) -> None:
        player: Optional[Player] = self.get_player(key)
        if player is not None:
            asyncio.create_task(player.update(state))

    def annotated_alone(self, key: str, state: str) -> None:
        player: Player
        player = self.get_player(key)  # type: ignore[assignment]
        asyncio.create_task(player.update(state))

    def bound_again(self, key: str, state: str, other: object) -> None:
        player: Player = self.get_player(key)  # type: ignore[assignment]
        if state:
            player = other  # type: ignore[assignment]
        asyncio.create_task(player.update(state))  # error: TRF001:9

    def unreadable(self, key: str, state: str, kind: type) -> None:
        player: kind = self.get_player(key)  # type: ignore[valid-type]
        asyncio.create_task(player.update(state))  # error: TRF001:9


class Table:
    class Player:  # a nested class of that name: the annotations below mean it
        async def update(self, state: str) -> None:
            await asyncio.sleep(1)

    current: Player
    by_key: "dict[str, Player]"
    seated: dict[str, Player]

    def deal(self, key: str, state: str) -> None:
        asyncio.create_task(self.current.update(state))  # error: TRF001:9
        asyncio.create_task(self.seated[key].update(state))  # error: TRF001:9

    def seat(self, player: Player) -> None:  # (read in the class body: the nested class)
        asyncio.create_task(player.update("seated"))  # error: TRF001:9


def named_like_its_class(Player: Player) -> None:  # (read where the function is defined)
    asyncio.create_task(Player.update("renamed"))


class Lobby:
    Player = Player  # the module's class, which a subclass may override
    current: Player

    def enter(self) -> None:
        asyncio.create_task(self.current.update("entered"))
