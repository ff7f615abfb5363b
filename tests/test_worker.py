"""The worker process of the editor server (``server/worker.py``): a big
document's check there gives the report the server's own check gives; a job
whose process is killed, or that the server ends, is a miss and the next job
starts another process; closing it leaves no process behind."""
from __future__ import annotations

import os
import signal
import sys
import threading
import time
from pathlib import Path
from typing import Any, List, Optional

import pytest

from flake8_taskref.server.checking import Projects, check_document
from flake8_taskref.server.worker import State, Worker, WorkerError, WorkerGone
from tests.harness import KEEPING_HELPER

SOURCE = "import asyncio\n\n\nasync def main() -> None:\n    asyncio.create_task(asyncio.sleep(1))\n"
# A stand-in for the worker: the same pipe, with jobs that wait or end it.
FAKE = """\
import os, sys, time
from flake8_taskref.server.worker import _receive, _send
source, sink = sys.stdin.buffer, sys.stdout.buffer
while True:
    try:
        name, args = _receive(source)
    except EOFError:
        break
    if name == "exit":
        os._exit(3)
    if name == "wait":
        time.sleep(600)
    if name == "raise":
        _send(sink, (False, "Traceback (most recent call last):\\nValueError: boom\\n"))
        continue
    _send(sink, (True, (name, args, os.getpid())))
"""
NO_STATE = State({}, {}, 0)


def fake() -> Worker:
    return Worker((sys.executable, "-c", FAKE))


def gone(pid: int) -> bool:
    """The process has ended and was waited for (no zombie left either)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    return False


def test_a_check_in_the_worker_is_the_server_s_own(tmp_path: Path) -> None:
    (tmp_path / "setup.cfg").write_text("[flake8]\nmax-line-length = 100\n", encoding="utf-8")
    path = tmp_path / "job.py"
    path.write_text(SOURCE, encoding="utf-8")
    worker = Worker()
    try:
        report = worker.run(object(), "check", NO_STATE, path.as_uri(), str(path), SOURCE, 3, str(tmp_path))
    finally:
        worker.close()
    assert report == check_document(path.as_uri(), str(path), SOURCE, 3, Projects(), str(tmp_path))
    assert [(f.line, f.col, f.code) for f in report.findings] == [(5, 5, "TRF001")]


def test_the_editor_s_settings_and_unsaved_modules_reach_the_worker(tmp_path: Path) -> None:
    (tmp_path / "setup.cfg").write_text("[flake8]\n", encoding="utf-8")
    (tmp_path / "app").mkdir()
    (tmp_path / "app" / "__init__.py").write_text("", encoding="utf-8")
    helpers = tmp_path / "app" / "helpers.py"
    helpers.write_text(KEEPING_HELPER.replace("    tasks.add(task)\n", ""), encoding="utf-8")
    app = tmp_path / "app" / "main.py"
    # (``main`` waits: the task of a coroutine that never suspends could not be lost)
    text = ("import asyncio\n\nfrom app.helpers import spawn\n\n\n"
            "async def main() -> None:\n    spawn(main())\n    await asyncio.sleep(1)\n")
    app.write_text(text, encoding="utf-8")
    worker = Worker()

    def codes(state: State) -> List[str]:
        report = worker.run(object(), "check", state, app.as_uri(), str(app), text, 1, str(tmp_path))
        return [f.code for f in report.findings]

    try:
        assert codes(NO_STATE) == ["TRF001"]
        kept = KEEPING_HELPER.encode()
        assert codes(State({}, {str(helpers): kept}, 0)) == []  # the editor's unsaved text of the helper
        assert codes(NO_STATE) == ["TRF001"]  # closed unsaved: the file again
        assert codes(State({"select": "TRF002"}, {}, 0)) == []  # the editor's settings
    finally:
        worker.close()


def test_a_killed_worker_is_a_miss_and_the_next_job_starts_another() -> None:
    worker = fake()
    try:
        first = worker.run(object(), "echo", 1)[2]
        assert worker.run(object(), "echo", 2) == ("echo", (2,), first)  # the same process
        with pytest.raises(WorkerGone, match="ended \\(status 3\\)"):
            worker.run(object(), "exit")
        assert gone(first)
        second = worker.run(object(), "echo", 3)[2]
        assert second != first
        os.kill(second, signal.SIGKILL)
        while not worker._proc or worker._proc.poll() is None:  # (waited for by the next job)
            time.sleep(0.01)
        assert worker.run(object(), "echo", 4)[2] not in (first, second)
        assert worker.started == 3
        with pytest.raises(WorkerError, match="^ValueError: boom$"):
            worker.run(object(), "raise")
    finally:
        worker.close()


def test_an_interrupted_job_ends_with_its_process_and_close_leaves_none() -> None:
    worker = fake()
    token = object()
    raised: List[BaseException] = []

    def waiting() -> None:
        try:
            worker.run(token, "wait")
        except BaseException as exc:
            raised.append(exc)

    thread = threading.Thread(target=waiting)
    thread.start()
    pid: Optional[int] = None
    while pid is None or not worker.interrupt(object()) and worker._job is not token:
        pid = worker.pid
        time.sleep(0.01)
    assert not worker.interrupt(object())  # another job's token: nothing happens
    assert worker.interrupt(token)
    thread.join(30)
    assert not thread.is_alive() and isinstance(raised[0], WorkerGone)
    assert gone(pid)
    # the next job gets a process of its own; close ends it
    later = worker.run(object(), "echo")[2]
    assert later != pid
    worker.close()
    assert gone(later)
    with pytest.raises(WorkerGone):
        worker.run(object(), "echo")


def test_the_project_s_modules_do_not_replace_python_s(tmp_path: Path, monkeypatch: Any) -> None:
    """The server runs in the user's project folder: a ``pickle.py`` there (or
    any module named as one of Python's) is never imported by the worker."""
    marker = tmp_path / "imported"
    for name in ("pickle", "struct", "traceback", "ast"):
        (tmp_path / f"{name}.py").write_text(
            f"open({str(marker)!r}, 'a').write({name!r})\nraise SystemExit(7)\n", encoding="utf-8")
    (tmp_path / "setup.cfg").write_text("[flake8]\n", encoding="utf-8")
    path = tmp_path / "job.py"
    path.write_text(SOURCE, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    worker = Worker()
    try:
        report = worker.run(object(), "check", NO_STATE, path.as_uri(), str(path), SOURCE, 1, str(tmp_path))
    finally:
        worker.close()
    assert not marker.exists()
    assert [f.code for f in report.findings] == ["TRF001"]


# The real worker (its ``main``), with one more job that takes its time, after
# a prelude (``WITHOUT``: as where there is no parent-death signal).
SLOW_WORKER = """\
import sys, time
{prelude}
from flake8_taskref.server import worker
worker.JOBS["wait"] = lambda known: time.sleep(600)
worker.main()
"""
WITHOUT = {
    "signal": "",
    "watch": ("import ctypes\ndef _none(*args, **kwargs):\n    raise OSError('no prctl here')\n"
              "ctypes.CDLL = _none"),
    "no-ctypes": "sys.modules['ctypes'] = None  # (an interpreter built without it)",
}
# A stand-in for the server: starts the worker, gives it the long job, says its id
SERVER = """\
import sys, threading, time
from flake8_taskref.server.worker import Worker
worker = Worker((sys.executable, "-c", {worker!r}))
threading.Thread(target=worker.run, args=(object(), "wait"), daemon=True).start()
while worker.pid is None or worker._job is None:
    time.sleep(0.01)
print(worker.pid, flush=True)
time.sleep(600)
"""


def ended(pid: int) -> bool:
    """The process has ended (a zombie that nobody has waited for yet counts:
    its parent, the server, is dead)."""
    if gone(pid):
        return True
    if not os.path.exists("/proc/self/stat"):
        return False  # (no /proc: a chroot without it, or no Linux; an orphan is reaped by init)
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
            return stat.read().rpartition(")")[2].split()[0] == "Z"
    except OSError:
        return True


@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="no SIGKILL")
@pytest.mark.parametrize("without", sorted(WITHOUT))
def test_the_worker_dies_with_a_killed_server(without: str) -> None:
    """A server killed with SIGKILL in the middle of a big document's job: the
    worker ends within seconds (before, it ran its job to its end, then saw
    its pipe's end), by the parent-death signal on Linux, else by its watch
    of its parent."""
    import subprocess

    server = subprocess.Popen(
        [sys.executable, "-c", SERVER.format(worker=SLOW_WORKER.format(prelude=WITHOUT[without]))],
        stdout=subprocess.PIPE, text=True,
    )
    assert server.stdout is not None
    pid = int(server.stdout.readline())
    try:
        time.sleep(0.3)  # (the worker in its job, its watch or signal armed)
        assert not ended(pid)
        os.kill(server.pid, signal.SIGKILL)
        server.wait(30)
        deadline = time.monotonic() + 10
        while not ended(pid) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert ended(pid), "the worker outlived its killed server"
    finally:
        server.stdout.close()
        if server.poll() is None:
            server.kill()
            server.wait(30)
        if not ended(pid):
            os.kill(pid, signal.SIGKILL)  # (the worker this test started, on the code before)


def test_close_and_interrupt_close_the_pipes() -> None:
    """The ended process's pipes are closed by ``close`` and ``interrupt``
    themselves, not left to a reading thread (an idle worker's were never
    closed by ``close``)."""
    worker = fake()
    worker.run(object(), "echo")
    proc = worker._proc
    assert proc is not None and proc.stdin is not None and proc.stdout is not None
    token = object()
    thread = threading.Thread(target=lambda: worker.attempt(token, "wait"))
    thread.start()
    while worker._job is not token:
        time.sleep(0.01)
    assert worker.interrupt(token)
    assert proc.stdin.closed and proc.stdout.closed
    thread.join(30)
    worker.run(object(), "echo")
    proc = worker._proc
    assert proc is not None and proc.stdin is not None and proc.stdout is not None
    worker.close()
    assert proc.stdin.closed and proc.stdout.closed
