"""The persistent cache: ``.taskref_cache/`` at the project root, as Ruff keeps
``.ruff_cache/``, with its own ``.gitignore`` (``*``) and a ``CACHEDIR.TAG``.

It keeps, per version of the tool, of Python and of the analysis options (one
folder each), the summaries of the project's modules, each file's findings and
the project's index (its files and spawner words), one small file per entry
(``marshal``'s format: plain values, read without importing a JSON parser) under
a name made from the file's absolute path.  An entry says which content
it was made from (a hash of the bytes) and which other modules' summaries it
used: a reader checks both, and recomputes what changed.

Writers never leave a half-written entry (each is written to a temporary file
beside it, then renamed over it), so concurrent runs (``flake8 -j``,
pre-commit, an editor beside them) are safe: the last one to write an entry
wins, and all of them write the same.  A cache that cannot be written (a
read-only tree, a full disk) is turned off for the run, which stays correct,
only slower; so is one whose entries cannot be read.
"""
from __future__ import annotations

import itertools
import marshal
import os
from contextlib import contextmanager
from typing import Any, Iterator, Optional

try:  # BLAKE2 without OpenSSL's hashlib (2 ms of every start-up)
    from _blake2 import blake2b
except ImportError:  # pragma: no cover - a Python built without it
    from hashlib import blake2b

__all__ = ["CACHE_DIR", "Cache", "content_hash", "digest"]

CACHE_DIR = ".taskref_cache"
_TAG = (
    "Signature: 8a477f597d28d172789f06886806bc55\n"
    "# This file is a cache directory tag created by flake8-taskref.\n"
    "# For information about cache directory tags, see https://bford.info/cachedir/\n"
)


def content_hash(data: bytes) -> str:
    return blake2b(data, digest_size=16).hexdigest()


def digest(value: Any) -> str:
    """A short stable hash of a plain value (lists, strings, numbers, None)."""
    return blake2b(repr(value).encode("utf-8", "surrogatepass"), digest_size=12).hexdigest()


_NAMES = itertools.count()


class Cache:
    """One namespace (tool version and options) of the cache; ``folder`` None:
    no cache (``--no-cache``), every ``get`` misses and ``put`` does nothing."""

    def __init__(self, folder: Optional[str], namespace: str = "") -> None:
        self.root = folder
        self.folder = os.path.join(folder, namespace) if folder is not None else None
        self._prepared = False

    @property
    def enabled(self) -> bool:
        return self.folder is not None

    def _path(self, kind: str, key: str) -> str:
        assert self.folder is not None
        name = blake2b(key.encode("utf-8", "surrogateescape"), digest_size=16).hexdigest()
        return os.path.join(self.folder, kind, name[:2], name)

    def get(self, kind: str, key: str) -> Optional[Any]:
        if self.folder is None:
            return None
        try:
            with open(self._path(kind, key), "rb") as handle:
                return marshal.loads(handle.read())
        except (OSError, ValueError, EOFError, TypeError):
            return None

    def put(self, kind: str, key: str, value: Any) -> None:
        if self.folder is None:
            return
        path = self._path(kind, key)
        try:
            self._prepare()
            folder = os.path.dirname(path)
            os.makedirs(folder, exist_ok=True)
            temporary = os.path.join(folder, f".tmp-{os.getpid()}-{next(_NAMES)}")
            fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
            try:
                with os.fdopen(fd, "wb") as handle:
                    handle.write(marshal.dumps(value))
                os.replace(temporary, path)
            except BaseException:
                try:
                    os.unlink(temporary)
                except OSError:
                    pass
                raise
        except OSError:
            self.folder = None  # read-only, full, gone: no cache for the rest of the run

    def _prepare(self) -> None:
        """The cache folder, with its ``.gitignore`` and ``CACHEDIR.TAG``."""
        if self._prepared or self.root is None:
            return
        os.makedirs(self.root, exist_ok=True)
        for name, text in ((".gitignore", "# Created by flake8-taskref automatically.\n*\n"),
                           ("CACHEDIR.TAG", _TAG)):
            path = os.path.join(self.root, name)
            if not os.path.exists(path):
                with open(path, "w", encoding="utf-8") as handle:
                    handle.write(text)
        self._prepared = True

    @contextmanager
    def lock(self, name: str) -> Iterator[None]:
        """Hold an exclusive lock (between processes) for work only one of them
        should do at a time; without a cache, or where locks cannot be had,
        nothing is held (the work is done twice, which is still correct)."""
        handle = None
        if self.folder is not None:
            try:
                import fcntl

                self._prepare()
                os.makedirs(self.folder, exist_ok=True)
                handle = open(os.path.join(self.folder, name + ".lock"), "a+b")
                fcntl.flock(handle.fileno(), fcntl.LOCK_EX)
            except (OSError, ImportError):
                if handle is not None:
                    handle.close()
                handle = None
        try:
            yield
        finally:
            if handle is not None:
                handle.close()  # releases the lock
