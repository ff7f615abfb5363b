"""Functions that call the callback they are given, dropping what it returns."""
from typing import Any, Callable


def run_hook(hook: Callable[..., Any], *args: Any) -> None:
    hook(*args)


def call_soon_safe(callback: Callable[[], Any]) -> Any:
    return callback()


class Dispatcher:
    def dispatch(self, handler: Callable[[], Any]) -> None:
        try:
            handler()
        except Exception:
            pass
