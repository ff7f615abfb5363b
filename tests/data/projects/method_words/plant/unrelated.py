from typing import Any


class Server:
    def start(self) -> None:
        pass


def go(server: Server, other: Any) -> None:
    server.start()
    other.start()
