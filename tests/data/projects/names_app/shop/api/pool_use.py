"""A method of a mixin of another module that returns a new list of new tasks,
reached through ``self`` (issue 32)."""
from typing import Any, List

from ..base import BaseService
from ..pool import PoolMixin


class Workers(BaseService, PoolMixin):
    def __init__(self) -> None:
        self._tasks: List[Any] = []

    def start(self, coros: List[Any]) -> None:
        self.start_all(coros)  # error: TRF001:9
        self.start_kept(coros, self._tasks)
        self._tasks.extend(self.start_all(coros))
