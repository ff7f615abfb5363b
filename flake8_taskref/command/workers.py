"""Worker processes of the ``flake8-taskref`` command, for a run with enough work
to pay for them (``runner``'s rule); imported only then, with ``multiprocessing``.

Each worker has its own pipe (no lock is shared, so a worker that dies blocks
nothing), takes a batch of paths, and sends back the reports of that batch
that say something (``runner.check_batch``).  Paths can be added while the
workers run (the walk of the folders goes on meanwhile), and workers added as
the work grows.  Batches are a quarter of each worker's share of what is left
(at most ``MAX_BATCH`` paths), so that the workers finish together.  A worker
that dies (a crash, the OOM killer, a signal to the whole process group) is
replaced; the paths of its batch are given again one at a time, and the one a
worker dies on is that file's internal error.  Workers ignore SIGINT and
SIGTERM and never write: the main process handles signals and writes fixes.
"""
from __future__ import annotations

import gc
import multiprocessing
import signal
import sys
from collections import deque
from multiprocessing.connection import Connection, wait
from typing import Any, Deque, Iterable, List, Optional

from flake8_taskref.project.config import Settings
from flake8_taskref.project.processes import Child
from flake8_taskref.command.runner import FileReport, check_batch
from flake8_taskref.command.writing import deferred_signals, ignore_signals_in_worker

__all__ = ["Pool", "MAX_BATCH", "MIN_OPEN_BATCH"]

MAX_BATCH = 256
# While paths may still come, a worker waits for at least this many.
MIN_OPEN_BATCH = 32


def _work(connection: Connection, settings: Settings, theirs: Optional[Connection] = None) -> None:
    """A worker process: batches of paths in, their reports out, until ``None``
    (``theirs``: the main process's end of the pipe, forked with the worker:
    closed, so that the worker sees the pipe end when the main process dies,
    even by SIGKILL, and ends instead of waiting for ever; ``Child``)."""
    if theirs is not None:
        theirs.close()
    ignore_signals_in_worker()
    gc.freeze()  # what it was forked with: no collection need walk it again
    while True:
        try:
            paths = connection.recv()
        except (EOFError, OSError):  # the main process is gone
            return
        if paths is None:
            return
        connection.send(check_batch(paths, settings))


class _Worker(Child):
    """One worker process, its own pipe and the batch it is on."""

    def __init__(self, context: Any, settings: Settings) -> None:
        super().__init__(context, _work, settings)
        self.batch: Optional[List[str]] = None

    def give(self, batch: List[str]) -> None:
        self.batch = batch
        try:
            self.connection.send(batch)
        except OSError:  # it died: take() says so
            pass

    def take(self) -> Optional[List[FileReport]]:
        """The reports of its batch; None when the worker died on it."""
        try:
            reports: List[FileReport] = self.connection.recv()
        except (EOFError, OSError):
            return None
        self.batch = None
        return reports

    def how_it_died(self) -> str:
        self.process.join(5)
        code = self.process.exitcode
        if code is not None and code < 0:
            return f"signal {signal.Signals(-code).name}"
        return f"exit code {code}"


class Pool:
    """Worker processes and the paths they are to check."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.context = multiprocessing.get_context("fork" if sys.platform == "linux" else "spawn")
        self.workers: List[_Worker] = []
        self.todo: Deque[str] = deque()
        self.again: Deque[str] = deque()  # a dead worker's batch, one path at a time
        self.open = True  # more paths may come

    def __len__(self) -> int:
        return len(self.workers)

    def grow(self, count: int) -> None:
        """Start workers until there are ``count``."""
        while len(self.workers) < count:
            with deferred_signals():  # no worker starts with the main process's handler
                self.workers.append(_Worker(self.context, self.settings))

    def add(self, paths: Iterable[str]) -> None:
        self.todo.extend(paths)

    def close(self) -> None:
        """No more paths will come."""
        self.open = False

    def _batch(self) -> Optional[List[str]]:
        if self.again:
            return [self.again.popleft()]
        left = len(self.todo)
        if not left or (self.open and left < MIN_OPEN_BATCH):
            return None
        size = max(1, min(MAX_BATCH, left // (4 * len(self.workers))))
        return [self.todo.popleft() for _ in range(size)]

    def _feed(self) -> None:
        for worker in self.workers:
            if worker.batch is None:
                batch = self._batch()
                if batch is None:
                    return
                worker.give(batch)

    def reports(self, block: bool) -> List[FileReport]:
        """Give idle workers a batch, then the reports of the batches finished
        (with ``block``, wait for one unless no worker is busy)."""
        self._feed()
        busy = {worker.connection: worker for worker in self.workers if worker.batch is not None}
        if not busy:
            return []
        reports: List[FileReport] = []
        for ready in wait(list(busy), None if block else 0):
            worker = busy[ready]
            batch = worker.batch
            taken = worker.take()
            if taken is None:  # it died: a new one, and its batch again one path at a time
                assert batch is not None
                reports += self._replace(worker, batch)
            else:
                reports += taken
        self._feed()
        return reports

    def _replace(self, worker: _Worker, batch: List[str]) -> List[FileReport]:
        how = worker.how_it_died()
        worker.stop()
        with deferred_signals():
            self.workers[self.workers.index(worker)] = _Worker(self.context, self.settings)
        if len(batch) > 1:
            self.again.extend(batch)
            return []
        path = batch[0]
        report = FileReport(self.settings.stdin_display_name if path == "-" else path)
        report.internal_error = f"the worker process died ({how})"
        return [report]

    def busy(self) -> bool:
        """Is there work left (given out or not)?"""
        return bool(self.todo or self.again) or any(worker.batch is not None for worker in self.workers)

    def stop(self) -> None:
        """End the workers at once (after the work, or when a signal stops the run)."""
        for worker in self.workers:
            worker.stop()
