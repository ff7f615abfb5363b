from typing import Any, Coroutine

from app import cycle_a


def relay_back(coro: "Coroutine[Any, Any, Any]") -> Any:
    return cycle_a.direct(coro)
