from typing import Any, Coroutine

from tools.deep import launch


def fire_and_forget(coro: "Coroutine[Any, Any, Any]") -> Any:
    return launch(coro)
