"""A worker process and the main process's end of its pipe: the index's
holders (``holders.py``) and the command's check workers
(``flake8_taskref.command.workers``) are started and ended alike."""
from __future__ import annotations

from typing import Any, Callable

__all__ = ["Child"]


class Child:
    """A process running ``target(pipe, *args, theirs)``, where ``theirs`` is
    the main process's end of the pipe when the process is forked (the child
    has a copy: closing it lets the child see the pipe end when the main
    process dies, even by SIGKILL, and end instead of waiting for ever), else
    None."""

    def __init__(self, context: Any, target: Callable[..., None], *args: Any) -> None:
        self.connection, theirs = context.Pipe()
        forked = context.get_start_method() == "fork"
        self.process = context.Process(
            target=target, args=(theirs, *args, self.connection if forked else None), daemon=True)
        self.process.start()
        theirs.close()  # so that the child's end closes with the child

    def stop(self) -> None:
        """End the process at once (after the work, or when the run stops)."""
        if self.process.is_alive():
            self.process.terminate()
        self.process.join(5)
        if self.process.is_alive():  # pragma: no cover - stuck in C code
            self.process.kill()
            self.process.join()
        self.connection.close()
