"""Writing a fixed file back, and stopping cleanly on SIGINT/SIGTERM.

A fix is written **in place**, as Black and Ruff write: the file is opened for
reading and writing, so its inode, owner, group, mode, hard links and extended
attributes stay what they were (a temporary file renamed over it would lose all
of them, and make the file the property of whoever runs the fix).  Before
anything is changed the file is read again through the same descriptor and
compared with the bytes that were linted: a file edited meanwhile is left alone.
A file whose mode has no write bit is refused even for root, who could write it.
The new size is reserved first (``posix_fallocate``), so that a full disk fails
before the first byte changes; then the content goes at offset 0 and the file is
cut to its length.  Should a write fail all the same, the old bytes are put back.

Only the main process writes (the workers compute and return bytes), and a
signal that arrives while it writes is held until the file is whole and counted
(``deferred_signals``): an interrupted run has only whole files, and knows which.
"""
from __future__ import annotations

import errno
import os
import signal
import stat
from contextlib import contextmanager
from types import FrameType
from typing import Any, Iterator, List, Optional

__all__ = ["NotWritten", "Stopped", "write_in_place", "stop_on_signals", "deferred_signals",
           "ignore_signals_in_worker", "SIGNALS"]

_REFUSED = (errno.EACCES, errno.EPERM, errno.EROFS)
_NO_SPACE = (errno.ENOSPC, errno.EDQUOT, errno.EFBIG)
SIGNALS = (signal.SIGINT, signal.SIGTERM)


class NotWritten(Exception):
    """The fix was not written; the message says why, and that the file is as it was."""


def write_in_place(path: str, expected: bytes, new: bytes) -> None:
    """Replace the content of ``path``, which must still be ``expected``, by ``new``."""
    try:
        before = os.stat(path)
    except OSError as exc:
        raise NotWritten(f"cannot write the fix: {exc.strerror or exc}") from None
    if not stat.S_ISREG(before.st_mode):
        raise NotWritten("not a regular file")
    if not before.st_mode & 0o222:
        raise NotWritten(f"the file is read-only (mode {stat.S_IMODE(before.st_mode):04o})")
    try:
        fd = os.open(path, os.O_RDWR | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0))
    except OSError as exc:
        if exc.errno in _REFUSED:
            raise NotWritten(_refusal(exc, before)) from None
        raise NotWritten(f"cannot open the file for writing: {exc.strerror or exc}") from None
    try:
        now = os.fstat(fd)
        if (now.st_dev, now.st_ino) != (before.st_dev, before.st_ino) or _read_all(fd) != expected:
            raise NotWritten("the file changed while fixing; run the fix again")
        _reserve(fd, len(new), now.st_size)
        try:
            _write_all(fd, new)
            os.ftruncate(fd, len(new))
        except OSError as exc:
            raise NotWritten(f"cannot write the fix: {exc.strerror or exc}; "
                             f"{_restore(fd, expected)}") from None
    finally:
        os.close(fd)


def _refusal(exc: OSError, status: os.stat_result) -> str:
    """Why a file with a write bit cannot be opened for writing, in words: a
    read-only file system, a file this user may not write (another user's, by
    its mode), or one the system refuses (immutable, append-only)."""
    if exc.errno == errno.EROFS:
        return f"the file system is read-only ({exc.strerror})"
    mode = stat.S_IMODE(status.st_mode)
    if exc.errno == errno.EACCES and hasattr(os, "geteuid") and status.st_uid != os.geteuid():
        return (f"this user may not write the file ({exc.strerror}; its owner is "
                f"{_user_name(status.st_uid)}, its mode {mode:04o})")
    return f"the file may not be written ({exc.strerror}; its mode is {mode:04o})"


def _user_name(uid: int) -> str:
    try:
        import pwd

        return f"{pwd.getpwuid(uid).pw_name} (uid {uid})"
    except (ImportError, KeyError):
        return f"uid {uid}"


def _read_all(fd: int) -> bytes:
    os.lseek(fd, 0, os.SEEK_SET)
    chunks: List[bytes] = []
    while True:
        chunk = os.read(fd, 1 << 20)
        if not chunk:
            return b"".join(chunks)
        chunks.append(chunk)


def _write_all(fd: int, data: bytes) -> None:
    """All of ``data`` from offset 0 (lseek and write: pwrite is POSIX-only)."""
    os.lseek(fd, 0, os.SEEK_SET)
    view = memoryview(data)
    done = 0
    while done < len(data):
        done += os.write(fd, view[done:])


def _reserve(fd: int, size: int, current: int) -> None:
    """Reserve the blocks the new content needs, so that a full disk fails here,
    before anything changes (where the file system cannot reserve, go on)."""
    if size <= current or not hasattr(os, "posix_fallocate"):
        return
    try:
        os.posix_fallocate(fd, 0, size)
    except OSError as exc:
        if exc.errno in _NO_SPACE:
            os.ftruncate(fd, current)  # fallocate may have grown the file
            raise NotWritten(f"cannot write the fix: {exc.strerror}; the file is unchanged") from None
        # EOPNOTSUPP, EINVAL...: no reservation on this file system


def _restore(fd: int, expected: bytes) -> str:
    try:
        _write_all(fd, expected)
        os.ftruncate(fd, len(expected))
    except OSError as exc:  # pragma: no cover - a disk failing twice
        return f"the old content could not be put back ({exc.strerror or exc}): check the file"
    return "the file is unchanged"


# ----------------------------------------------------------------- signals
class Stopped(BaseException):
    """SIGINT or SIGTERM arrived: stop, write nothing more (a BaseException, so
    that no ``except Exception`` on the way swallows it)."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


class _State:
    deferring = 0
    pending: Optional[int] = None
    stopped = False


def _on_signal(signum: int, frame: Optional[FrameType]) -> None:
    if _State.stopped:  # already stopping: the cleanup is not interrupted again
        return
    if _State.deferring:
        _State.pending = signum
        return
    _State.stopped = True
    raise Stopped(signum)


@contextmanager
def stop_on_signals() -> Iterator[None]:
    """SIGINT and SIGTERM raise ``Stopped`` in the main thread (outside
    ``deferred_signals``) for the duration; the old handlers come back after."""
    old: List[Any] = [signal.signal(signum, _on_signal) for signum in SIGNALS]
    _State.deferring, _State.pending, _State.stopped = 0, None, False
    try:
        yield
    finally:
        for signum, handler in zip(SIGNALS, old):
            signal.signal(signum, handler)


@contextmanager
def deferred_signals() -> Iterator[None]:
    """Hold SIGINT/SIGTERM until the block is done, then raise ``Stopped``.

    A flag, not ``pthread_sigmask``: the pool's helper threads can take a signal
    too, and Python runs its handler in the main thread whichever thread took it;
    the flag holds it wherever it arrives."""
    _State.deferring += 1
    try:
        yield
    finally:
        _State.deferring -= 1
        if not _State.deferring and _State.pending is not None and not _State.stopped:
            signum, _State.pending, _State.stopped = _State.pending, None, True
            raise Stopped(signum)


def ignore_signals_in_worker() -> None:
    """In a worker: Ctrl-C (sent to the whole process group) is the main
    process's business; SIGTERM (the pool's terminate) ends the worker quietly."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
