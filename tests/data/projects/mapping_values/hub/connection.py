import asyncio
from typing import Dict

from hub.station import Runner, Station


class Connection:
    def __init__(self) -> None:
        self._stations: dict[str, Station] = {}
        self._others: Dict[str, Station] = {}
        self._runners: Dict[str, Runner] = {}

    def received(self, host: str, data: str) -> None:
        station = self._stations.get(host)
        asyncio.get_running_loop().create_task(station.received(data))
        other = self._others[host]
        asyncio.create_task(other.received(data))
        asyncio.create_task(self._stations[host].received(data))

    def waits(self, host: str, data: str) -> None:
        station = self._stations.get(host)
        asyncio.create_task(station.waits(data))  # error: TRF001:9
        asyncio.create_task(self._stations[host].waits(data))  # error: TRF001:9

    def start(self, key: str) -> None:
        runner = self._runners[key]
        runner.start()  # error: TRF001:9
        self._runners[key].start()  # error: TRF001:9
        self._runners.pop(key).start()  # error: TRF001:9

    def kept(self, key: str) -> "asyncio.Task[None]":
        runner = self._runners[key]
        return runner.start()


class AnnotatedLater:
    def received(self, host: str, data: str) -> None:
        station = self._stations.get(host)
        asyncio.create_task(station.received(data))

    def __init__(self) -> None:
        self._stations: Dict[str, Station] = {}


class TwoAnnotations:
    """Two annotations that disagree: the values' class is not known."""

    def __init__(self) -> None:
        self._stations: dict[str, Station] = {}

    def reset(self) -> None:
        self._stations: dict[str, Runner] = {}

    def received(self, host: str, data: str) -> None:
        station = self._stations[host]
        asyncio.create_task(station.received(data))  # error: TRF001:9


class Rebound:
    def __init__(self) -> None:
        self._stations: dict[str, Station] = {}

    def received(self, host: str, data: str, other: object) -> None:
        station = self._stations[host]
        if data:
            station = other
        asyncio.create_task(station.received(data))  # error: TRF001:9


class OfTasks:
    """A mapping of the standard library's classes: nothing to look up."""

    def __init__(self) -> None:
        self._tasks: dict[str, asyncio.Task[None]] = {}

    def drop(self, key: str) -> None:
        task = self._tasks[key]
        asyncio.ensure_future(task)


class NotAMapping:
    def __init__(self) -> None:
        self._stations: list[Station] = []
        self._pairs: tuple[str, Station] = ("", Station())

    def received(self, data: str) -> None:
        asyncio.create_task(self._stations[0].received(data))  # error: TRF001:9
        station = self._pairs[1]
        asyncio.create_task(station.received(data))  # error: TRF001:9
