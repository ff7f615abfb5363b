"""The checks and fixes of big documents, in a process of their own (issue 33).

``ast.parse`` of a document of megabytes is one call in C that holds the
interpreter lock for seconds: in a thread of the server it delays every other
document's check (and the loop that reads the editor's messages).  A document
of ``BIG`` characters or more is therefore checked, and fixed, in a worker
process (``flake8_taskref.server.worker.main``, started at the first big
document, over its standard input and output), one job at a time, while the
server goes on with the others.

- The worker is the server's own child, the only one: what crosses the pipe
  is pickled by one of them for the other (never a file of the user's).
- A job the server no longer wants (the document changed, or was closed, while
  its check ran) is ended by ending the process (``Worker.interrupt``); the
  next job starts another.  A worker that ends by itself (killed, out of
  memory, crashed) makes its job a miss (``WorkerGone``), never the server's
  end, and the next job starts another too.
- The server sends with each job what the worker's project view must know
  besides the files on disk: the editor's settings, the texts of the modules it
  holds unsaved, and a count of the times the project's modules were read
  again (``State``).
- Shutting the server down kills the worker, waits for it and closes its
  pipes; a server that ends without a shutdown closes the pipe, and the worker
  ends at its end.  A server that is killed (SIGKILL) does not wait for the
  worker's job to end either: the worker dies with it (``_die_with_parent``).
"""
from __future__ import annotations

import logging
import os
import pickle
import signal
import struct
import subprocess
import sys
import threading
import time
import traceback
from typing import IO, Any, Callable, Dict, NamedTuple, Optional, Tuple

__all__ = ["BIG", "Worker", "WorkerGone", "WorkerError", "State", "main"]

# Characters: a document this long or longer is checked and fixed in the worker
# (about 25,000 lines of code; its parse holds the interpreter lock for about
# 0.1 s, its check takes about half a second, against the worker's 0.1 s to
# start and a few milliseconds to send the text).
BIG = 1_000_000
STACK_SIZE = 64 * 1024 * 1024  # the stack of the worker's thread, as the server's (deep files)
_HEADER = struct.Struct("<Q")
logger = logging.getLogger(__name__)


# The worker's start: ``python -m`` (and ``-c``) would put the server's folder, the
# user's project, first on the module path, where a ``pickle.py`` or ``ast.py`` of
# the project's would be imported instead of Python's; it is taken off first.
_START = ('import sys\nif sys.path and sys.path[0] == "":\n    del sys.path[0]\n'
          "from flake8_taskref.server.worker import main\nmain()\n")
# The environment variable that gives the worker its server's process id
# (``_die_with_parent``: the server may have died before the worker asks).
PARENT_VARIABLE = "FLAKE8_TASKREF_SERVER_PID"
# How often, in seconds, a worker without a parent-death signal asks whether
# its server is still its parent.
WATCH_EVERY = 0.2


class WorkerGone(Exception):
    """The worker ended before it answered (killed, crashed, or ended by the server)."""


class WorkerError(Exception):
    """The job raised in the worker (a bug of ours): its last line, and the
    whole traceback (``details``)."""

    def __init__(self, message: str, details: str) -> None:
        super().__init__(message)
        self.details = details


class State(NamedTuple):
    """What the worker's project view must know besides the files."""

    options: Dict[str, str]  # the editor's settings, as the command's options
    open_texts: Dict[str, bytes]  # modules the editor holds unsaved, by absolute path
    generation: int  # how many times the server's view read the project's modules again


def _send(stream: IO[bytes], value: Any) -> None:
    data = pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
    stream.write(_HEADER.pack(len(data)))
    stream.write(data)
    stream.flush()


def _read(stream: IO[bytes], size: int) -> bytes:
    chunks = []
    while size:
        chunk = stream.read(size)
        if not chunk:
            raise EOFError
        chunks.append(chunk)
        size -= len(chunk)
    return b"".join(chunks)


def _receive(stream: IO[bytes]) -> Any:
    (size,) = _HEADER.unpack(_read(stream, _HEADER.size))
    return pickle.loads(_read(stream, size))


class Worker:
    """The server's side: one process, one job at a time (``run`` is called
    from one thread that waits for it; ``interrupt`` and ``close`` from any)."""

    def __init__(self, command: Optional[Tuple[str, ...]] = None) -> None:
        self.command = command or (sys.executable, "-c", _START)
        self._lock = threading.Lock()
        self._proc: Optional["subprocess.Popen[bytes]"] = None
        self._job: object = None  # the token of the job the process is running
        self._closed = False
        self.started = 0  # processes started (a test's view of the restarts)

    @property
    def pid(self) -> Optional[int]:
        proc = self._proc
        return proc.pid if proc is not None and proc.poll() is None else None

    def _process(self) -> "subprocess.Popen[bytes]":
        if self._proc is None or self._proc.poll() is not None:
            if self._proc is not None:
                self._end(self._proc)
            self._proc = subprocess.Popen(
                self.command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, close_fds=True,
                env={**os.environ, PARENT_VARIABLE: str(os.getpid())},
            )
            self.started += 1
        return self._proc

    def run(self, token: object, name: str, *args: Any) -> Any:
        """The job's result (``name``: one of ``JOBS``); raises WorkerGone or
        WorkerError.  ``token`` names the job for ``interrupt``."""
        with self._lock:
            if self._closed:
                raise WorkerGone("the server is shutting down")
            proc = self._process()
            self._job = token
        try:
            assert proc.stdin is not None and proc.stdout is not None
            _send(proc.stdin, (name, args))
            ok, value = _receive(proc.stdout)
        except (OSError, EOFError, ValueError, pickle.UnpicklingError, struct.error) as exc:
            with self._lock:
                self._job = None
                self._end(proc)
                status = proc.returncode
            raise WorkerGone(_ended(status)) from exc
        finally:
            with self._lock:
                self._job = None
        if not ok:
            raise WorkerError(str(value).strip().splitlines()[-1], str(value))
        return value

    def attempt(self, token: object, name: str, *args: Any) -> Tuple[Any, Optional[Exception]]:
        """``run``: (its result, None), or (None, why it has none)."""
        try:
            return self.run(token, name, *args), None
        except WorkerError as exc:
            logger.error("in the worker process: %s", exc.details)
            return None, exc
        except WorkerGone as exc:
            return None, exc

    def interrupt(self, token: object) -> bool:
        """End the job ``token`` if the process is running it (the process
        ends with it, and its pipes are closed); whether it did."""
        with self._lock:
            if self._job is not token or token is None or self._proc is None:
                return False
            self._job = None
            self._end(self._proc)
            return True

    def close(self) -> None:
        """End the process and close its pipes (the server shuts down): no
        job runs after it."""
        with self._lock:
            self._closed = True
            if self._proc is not None:
                self._end(self._proc)

    @staticmethod
    def _end(proc: "subprocess.Popen[bytes]") -> None:
        """Kill the process, wait for it and close its pipes (a thread blocked
        on one of them sees its end: the close waits for its read or write,
        which the end of the process ends)."""
        if proc.poll() is None:
            try:
                proc.kill()
            except OSError:  # it ended meanwhile
                pass
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:  # pragma: no cover (a process that a kill does not end)
            pass
        for stream in (proc.stdin, proc.stdout):
            if stream is not None:
                try:
                    stream.close()
                except OSError:
                    pass


def _ended(status: Optional[int]) -> str:
    if status is not None and status < 0:
        try:
            name = signal.Signals(-status).name
        except ValueError:
            name = f"signal {-status}"
        return f"the process that checks big documents was ended by {name} before it answered"
    return f"the process that checks big documents ended (status {status}) before it answered"


# ---------------------------------------------------------------- the worker
class _Known:
    """The worker's copy of what the server told it."""

    def __init__(self) -> None:
        from flake8_taskref.server.checking import Projects

        self.projects = Projects()
        self.open_texts: Dict[str, bytes] = {}
        self.generation = 0

    def take(self, state: State) -> None:
        from flake8_taskref.project.view import forget_all, set_open_text

        self.projects.set_options(state.options)
        if state.generation != self.generation:
            forget_all()
            self.generation = state.generation
        for path in [path for path in self.open_texts if path not in state.open_texts]:
            del self.open_texts[path]
            set_open_text(path, None)
        for path, data in state.open_texts.items():
            if self.open_texts.get(path) != data:
                self.open_texts[path] = data
                set_open_text(path, data)


def _check(known: _Known, state: State, uri: str, path: Optional[str], text: str, version: Optional[int],
           fallback: str) -> Any:
    from flake8_taskref.server.checking import check_document

    known.take(state)
    return check_document(uri, path, text, version, known.projects, fallback)


def _fix_all(known: _Known, state: State, report: Any, options: Any) -> Any:
    from flake8_taskref.server.fixes import fix_all

    known.take(state)
    return fix_all(report, options)


def _site_fixes(known: _Known, state: State, report: Any, index: int, options: Any) -> Any:
    from flake8_taskref.server.fixes import site_fixes

    known.take(state)
    return site_fixes(report, index, options)


JOBS: Dict[str, Callable[..., Any]] = {"check": _check, "fix_all": _fix_all, "site_fixes": _site_fixes}


def _serve(source: IO[bytes], sink: IO[bytes]) -> None:
    known = _Known()
    while True:
        try:
            name, args = _receive(source)
        except (EOFError, OSError, struct.error):
            return  # the server closed the pipe (or ended): so do we
        try:
            reply: Tuple[bool, Any] = (True, JOBS[name](known, *args))
        except Exception:
            reply = (False, traceback.format_exc())
        try:
            _send(sink, reply)
        except OSError:
            return


def _die_with_parent(parent: Optional[int]) -> str:
    """End this process when ``parent`` (the server) ends, even in the middle
    of a job: a server killed with SIGKILL closes the pipe, but the worker
    would see it only after its job (seconds of a big document).  On Linux
    the kernel sends SIGKILL when the parent ends (``prctl(PR_SET_PDEATHSIG)``,
    through ctypes); elsewhere, or if that fails, a thread asks every
    ``WATCH_EVERY`` seconds whether the parent is still this process's (an
    ended parent's children are given to another), and ends the process if
    not (it waits for the interpreter lock: a parse in C of a big document
    may delay it until the parse ends).  A parent that ended before either
    was armed is seen at once.  (Linux sends the signal when the parent's
    thread that started the worker ends: the server starts it from its
    waiter thread, which lives as long as the server; a worker ended so is
    started again by the next job, as after any end.)  What was armed: "signal", "watch" or "" (no
    parent known, or none to watch: on Windows a parent's end changes no
    process id, and the end of the pipe is what ends the worker)."""
    if parent is None or parent <= 1:
        return ""
    armed = ""
    if sys.platform.startswith("linux"):
        try:
            import ctypes

            libc = ctypes.CDLL(None, use_errno=True)
            if libc.prctl(1, int(signal.SIGKILL), 0, 0, 0) == 0:  # PR_SET_PDEATHSIG
                armed = "signal"
        except (ImportError, OSError, AttributeError, TypeError, ValueError):  # no ctypes, libc or prctl
            pass
    if os.getppid() != parent:  # it ended before: now our parent is another
        os._exit(0)
    if armed or sys.platform == "win32":
        return armed

    def watch() -> None:
        while True:
            time.sleep(WATCH_EVERY)
            if os.getppid() != parent:
                os._exit(0)

    threading.Thread(target=watch, name="taskref-worker-watch", daemon=True).start()
    return "watch"


def _parent() -> Optional[int]:
    """The server's process id, as it gave it (``PARENT_VARIABLE``)."""
    try:
        return int(os.environ.get(PARENT_VARIABLE, ""))
    except ValueError:
        return None


def main() -> None:
    """The worker (``_START``): serve the server's jobs until it closes the
    pipe, or ends."""
    _die_with_parent(_parent())
    source, sink = sys.stdin.buffer, sys.stdout.buffer
    sys.stdout = sys.stderr  # nothing else reaches the server's pipe
    if hasattr(signal, "SIGINT"):
        signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the server's to handle
    size = threading.stack_size()
    try:
        threading.stack_size(STACK_SIZE)
    except (ValueError, RuntimeError):  # the platform sets it
        pass
    thread = threading.Thread(target=_serve, args=(source, sink), name="taskref-worker")
    thread.start()
    threading.stack_size(size)
    thread.join()
    os._exit(0)  # (the analysis's own threads, if any, do not hold the process)


if __name__ == "__main__":
    main()
