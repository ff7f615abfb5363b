"""The persistent cache: ``.taskref_cache/`` at the project root, as Ruff keeps
``.ruff_cache/``, with its own ``.gitignore`` (``*``) and a ``CACHEDIR.TAG``.

It keeps, per version of the tool, of Python and of the analysis options (one
folder each), the summaries of the project's modules, each file's findings and
the project's index (its files and spawner words), one small file per entry
(``marshal``'s format: plain values, read without importing a JSON parser) under
a name made from the file's absolute path.  An entry says which content
it was made from (a hash of the bytes) and which other modules' summaries it
used: a reader checks both, and recomputes what changed.

**What is trusted.**  Nothing in the project's tree: the cache folder may have
been committed, copied or planted.  Each entry carries a keyed hash (BLAKE2b
with a key of this user's, kept outside every project: ``key_folder()``) of its
bytes, of its namespace, kind and name; an entry whose hash does not match is a
miss, and ``marshal`` never sees its bytes.  Entries are read only when they are
regular files, of a bounded size, opened without following a link (a named pipe
does not block the run, a link to a device is not read).  Without a key (no home
folder, a key folder that is not the user's own), there is no cache.  The
cache's folder is used only if it is no link and holds the tool's own
``CACHEDIR.TAG`` (or is empty): a folder the tool did not make is neither read
nor written.  Nothing is written through a link: ``.gitignore`` and the tag are
created exclusively without following links, the folders under the cache's are
checked to be real folders of this user's before an entry is written in them,
and an entry is written to a temporary file and renamed over its name (which
replaces a link there, and never follows it).  What a reader gets is checked for
its shape by the reader (``entries.py``).

Writers never leave a half-written entry (each is written to a temporary file
beside it, then renamed over it), so concurrent runs (``flake8 -j``,
pre-commit, an editor beside them) are safe: the last one to write an entry
wins, and all of them write the same.  A cache that cannot be written (a
read-only tree, a full disk) is turned off for the run, which stays correct,
only slower; so is one whose entries cannot be read.  Temporary files a killed
run left are removed by the next run that writes in their folder, once they are
an hour old.
"""
from __future__ import annotations

import itertools
import marshal
import os
import stat
import time
from contextlib import contextmanager
from typing import Any, Dict, Iterator, Optional, Set

try:  # BLAKE2 without OpenSSL's hashlib (2 ms of every start-up)
    from _blake2 import blake2b
except ImportError:  # pragma: no cover - a Python built without it
    from hashlib import blake2b
try:  # a comparison in constant time, without importing hmac (and hashlib)
    from _operator import _compare_digest as same_bytes
except ImportError:  # pragma: no cover - another implementation of Python
    from hmac import compare_digest as same_bytes  # type: ignore[no-redef]

__all__ = ["CACHE_DIR", "KEY_DIR_VARIABLE", "Cache", "content_hash", "digest", "key_folder", "user_key"]

CACHE_DIR = ".taskref_cache"
# The environment variable that names the folder of the user's key (the test
# suite points it at a temporary folder).
KEY_DIR_VARIABLE = "FLAKE8_TASKREF_KEY_DIR"
_TAG = (
    "Signature: 8a477f597d28d172789f06886806bc55\n"
    "# This file is a cache directory tag created by flake8-taskref.\n"
    "# For information about cache directory tags, see https://bford.info/cachedir/\n"
)
_GITIGNORE = "# Created by flake8-taskref automatically.\n*\n"
_KEY_SIZE = 32  # bytes of the user's key (BLAKE2b's longest)
_MAC_SIZE = 16  # bytes of an entry's keyed hash, before its value
_MAX_ENTRY = 256 << 20  # an entry larger than this is not read
_STALE = 3600.0  # seconds after which a temporary file is a killed run's
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
# a named pipe opens without waiting for a writer; a link is not followed
_READ = os.O_RDONLY | _NOFOLLOW | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0) | getattr(
    os, "O_BINARY", 0)
_CREATE = os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW | getattr(os, "O_BINARY", 0)


def content_hash(data: bytes) -> str:
    return blake2b(data, digest_size=16).hexdigest()


def digest(value: Any) -> str:
    """A short stable hash of a plain value (lists, strings, numbers, None)."""
    return blake2b(repr(value).encode("utf-8", "surrogatepass"), digest_size=12).hexdigest()


_NAMES = itertools.count()


# ------------------------------------------------------------------ the key
def key_folder() -> Optional[str]:
    """Where the user's key is kept, outside every project: the folder
    ``FLAKE8_TASKREF_KEY_DIR`` names, else ``flake8-taskref`` in the user's
    cache folder (``$XDG_CACHE_HOME``, ``~/.cache``, ``%LOCALAPPDATA%``)."""
    named = os.environ.get(KEY_DIR_VARIABLE)
    if named:
        return os.path.abspath(named)
    base = os.environ.get("XDG_CACHE_HOME", "")
    if not os.path.isabs(base):
        if os.name == "nt":
            base = os.environ.get("LOCALAPPDATA", "")
        else:
            home = os.path.expanduser("~")
            base = os.path.join(home, ".cache") if os.path.isabs(home) else ""
    return os.path.join(base, "flake8-taskref") if os.path.isabs(base) else None


def _own(status: os.stat_result) -> bool:
    """Is a file this user's own, and not open to others' writes?"""
    if os.name == "nt" or not hasattr(os, "geteuid"):
        return True
    return status.st_uid == os.geteuid() and not status.st_mode & 0o022


_KEYS: Dict[str, Optional[bytes]] = {}


def user_key() -> Optional[bytes]:
    """This user's key (made at the first use: random bytes in a file only the
    user may read), read once per process; None when none can be had (no
    cache then)."""
    folder = key_folder()
    if folder is None:
        return None
    if folder not in _KEYS:
        _KEYS[folder] = _load_key(folder)
    return _KEYS[folder]


def _load_key(folder: str) -> Optional[bytes]:
    try:
        os.makedirs(folder, mode=0o700, exist_ok=True)
        status = os.lstat(folder)
        if not stat.S_ISDIR(status.st_mode) or not _own(status):
            return None
        path = os.path.join(folder, "key")
        key = _read_key(path)
        if key is None and not os.path.lexists(path):
            _make_key(folder, path)
            key = _read_key(path)
        return key
    except OSError:
        return None


def _read_key(path: str) -> Optional[bytes]:
    """The key in ``path``: a regular file of the user's, no link, that no
    one else may read, of the key's size; else None."""
    try:
        fd = os.open(path, _READ)
    except OSError:
        return None
    try:
        status = os.fstat(fd)
        if (not stat.S_ISREG(status.st_mode) or not _own(status) or status.st_size != _KEY_SIZE
                or (os.name != "nt" and status.st_mode & 0o077)):
            return None
        data = os.read(fd, _KEY_SIZE + 1)
        return data if len(data) == _KEY_SIZE else None
    finally:
        os.close(fd)


def _make_key(folder: str, path: str) -> None:
    """A new key, written whole under another name and then linked to its
    name, so that two runs making one at once both read the one that won."""
    temporary = os.path.join(folder, f".key-{os.getpid()}-{next(_NAMES)}")
    fd = os.open(temporary, _CREATE, 0o600)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(os.urandom(_KEY_SIZE))
        try:
            os.link(temporary, path)
        except FileExistsError:
            pass
        except OSError:  # a file system without hard links
            if not os.path.lexists(path):
                os.replace(temporary, path)
    finally:
        try:
            os.unlink(temporary)
        except OSError:
            pass


# ------------------------------------------------------------- small files
def read_regular(path: str, limit: int) -> Optional[bytes]:
    """The bytes of ``path`` if it is a regular file (not a link, a named
    pipe, a device) of at most ``limit`` bytes; else None."""
    try:
        fd = os.open(path, _READ)
    except OSError:
        return None
    try:
        status = os.fstat(fd)
        if not stat.S_ISREG(status.st_mode) or status.st_size > limit:
            return None
        chunks = []
        left = status.st_size
        while left > 0:
            chunk = os.read(fd, left)
            if not chunk:
                break
            chunks.append(chunk)
            left -= len(chunk)
        return b"".join(chunks)
    except OSError:
        return None
    finally:
        os.close(fd)


def _write_new(path: str, text: str) -> None:
    """Create ``path`` with ``text``, never through a link (nor over a file)."""
    fd = os.open(path, _CREATE, 0o644)
    with os.fdopen(fd, "wb") as handle:
        handle.write(text.encode("utf-8"))


def _replace(path: str, text: str) -> None:
    """Write ``path`` whole: a new file renamed over it (a link there is
    replaced, never followed)."""
    folder, name = os.path.split(path)
    temporary = os.path.join(folder, f".tmp-{name}-{os.getpid()}-{next(_NAMES)}")
    try:
        _write_new(temporary, text)
        os.replace(temporary, path)
    finally:
        try:
            os.unlink(temporary)
        except OSError:
            pass


class Cache:
    """One namespace (tool version and options) of the cache; ``folder`` None:
    no cache (``--no-cache``), every ``get`` misses and ``put`` does nothing."""

    def __init__(self, folder: Optional[str], namespace: str = "") -> None:
        folder = None if folder is None else os.path.normpath(folder)
        self.root = folder
        self.namespace = namespace
        self.folder = os.path.join(folder, namespace) if folder is not None else None
        self._key: Optional[bytes] = None
        self._trusted: Optional[bool] = None  # is the root the tool's own (None: not looked at yet)
        self._checked: Set[str] = set()  # folders found real and ours, this run

    @property
    def enabled(self) -> bool:
        return self.folder is not None

    def _off(self) -> None:
        self.folder = None

    def _name(self, kind: str, key: str) -> str:
        return blake2b(key.encode("utf-8", "surrogateescape"), digest_size=16).hexdigest()

    def _path(self, kind: str, name: str) -> str:
        assert self.folder is not None
        return os.path.join(self.folder, kind, name[:2], name)

    def _mac(self, kind: str, name: str, value: bytes) -> bytes:
        assert self._key is not None
        mac = blake2b(key=self._key, digest_size=_MAC_SIZE)
        mac.update(f"{self.namespace}/{kind}/{name}\n".encode("utf-8", "surrogateescape"))
        mac.update(value)
        return mac.digest()

    def _usable(self, writing: bool) -> bool:
        """Is there a key, and is the cache's folder the tool's own?  (Once per
        run; a folder that does not exist yet is made when written.)"""
        if self.folder is None:
            return False
        if self._key is None:
            self._key = user_key()
            if self._key is None:
                self._off()
                return False
        if self._trusted is None or (writing and not self._trusted):
            self._trusted = self._look_at_root(writing)
            if self.folder is None:
                return False
        return self._trusted

    def _look_at_root(self, writing: bool) -> bool:
        """True: the root is ours to read and write; False: it does not
        exist (yet); a root that is not ours turns the cache off."""
        root = self.root
        assert root is not None
        try:
            status = os.lstat(root)
        except FileNotFoundError:
            if not writing:
                return False
            try:
                os.makedirs(root)
            except FileExistsError:
                pass
            except OSError:
                self._off()
                return False
            return self._look_at_root(False)
        except OSError:
            self._off()
            return False
        if not stat.S_ISDIR(status.st_mode):  # a link, a file: not ours
            self._off()
            return False
        tag = os.path.join(root, "CACHEDIR.TAG")
        found = read_regular(tag, len(_TAG) + 1)
        if found != _TAG.encode("utf-8"):
            try:
                if found is None and os.listdir(root):
                    self._off()  # a folder the tool did not make (or a tag that is a link)
                    return False
                if found is not None and not _TAG.encode("utf-8").startswith(found):
                    self._off()  # someone else's tag
                    return False
                # an empty folder, or a tag a full disk cut short: ours
                _replace(tag, _TAG) if found is not None else _write_new(tag, _TAG)
            except FileExistsError:  # another run made the folder at the same time
                if read_regular(tag, len(_TAG) + 1) not in (_TAG.encode("utf-8"), b""):
                    self._off()
                    return False
            except OSError:
                self._off()
                return False
        ignore = os.path.join(root, ".gitignore")
        try:
            if not os.path.lexists(ignore):
                _write_new(ignore, _GITIGNORE)
            elif not os.path.islink(ignore) and os.path.getsize(ignore) == 0:
                _replace(ignore, _GITIGNORE)  # cut short by a full disk
        except OSError:
            pass  # a read-only tree: read what is there
        return True

    def get(self, kind: str, key: str) -> Optional[Any]:
        """The value kept under ``key``, if this user's key signed it here;
        else None.  Its shape is the caller's to check."""
        if not self._usable(False):
            return None
        name = self._name(kind, key)
        data = read_regular(self._path(kind, name), _MAX_ENTRY)
        if data is None or len(data) < _MAC_SIZE:
            return None
        value = data[_MAC_SIZE:]
        if not same_bytes(data[:_MAC_SIZE], self._mac(kind, name, value)):
            return None
        try:
            return marshal.loads(value)
        except Exception:  # signed by us, yet unreadable: a miss
            return None

    def put(self, kind: str, key: str, value: Any) -> None:
        if not self._usable(True):
            return
        name = self._name(kind, key)
        try:
            data = marshal.dumps(value)
        except ValueError:  # pragma: no cover - the view keeps plain values only
            return
        try:
            self._write(kind, name, data)
        except FileNotFoundError:
            # the folder was deleted meanwhile (a long-running face, the
            # editor server, outlives it): looked at and made again, once
            self._checked.clear()
            self._trusted = None
            try:
                if self._usable(True):
                    self._write(kind, name, data)
            except OSError:
                self._off()
        except OSError:
            self._off()  # read-only, full, a link: no cache for the rest of the run

    def _write(self, kind: str, name: str, data: bytes) -> None:
        path = self._path(kind, name)
        folder = os.path.dirname(path)
        self._folder(folder)
        temporary = os.path.join(folder, f".tmp-{os.getpid()}-{next(_NAMES)}")
        fd = os.open(temporary, _CREATE, 0o644)
        try:
            with os.fdopen(fd, "wb") as handle:
                handle.write(self._mac(kind, name, data))
                handle.write(data)
            os.replace(temporary, path)
        except BaseException:
            try:
                os.unlink(temporary)
            except OSError:
                pass
            raise

    def _folder(self, folder: str) -> None:
        """Make ``folder`` (under the root) and those between: each a real
        folder of this user's, no link (OSError otherwise); the temporary
        files a killed run left in it are removed."""
        if folder in self._checked:
            return
        assert self.root is not None
        parent = os.path.dirname(folder)
        if parent == folder or not folder.startswith(self.root):
            raise NotADirectoryError(folder)  # not under the root (never asked)
        if parent != self.root:
            self._folder(parent)
        else:
            self._clean(parent)  # (a tag being written again when a run was killed)
        try:
            os.mkdir(folder)
        except FileExistsError:
            pass
        status = os.lstat(folder)
        if not stat.S_ISDIR(status.st_mode) or not _own(status):
            raise NotADirectoryError(folder)
        self._clean(folder)
        self._checked.add(folder)

    @staticmethod
    def _clean(folder: str) -> None:
        stale = time.time() - _STALE
        try:
            with os.scandir(folder) as entries:
                for entry in entries:
                    if entry.name.startswith(".tmp-") and entry.is_file(follow_symlinks=False):
                        try:
                            if entry.stat(follow_symlinks=False).st_mtime < stale:
                                os.unlink(entry.path)
                        except OSError:
                            pass
        except OSError:
            pass

    @contextmanager
    def lock(self, name: str) -> Iterator[None]:
        """Hold an exclusive lock (between processes) for work only one of them
        should do at a time; without a cache, or where locks cannot be had,
        nothing is held (the work is done twice, which is still correct)."""
        fd = None
        if self._usable(True):
            try:
                import fcntl

                assert self.folder is not None
                self._folder(self.folder)
                flags = os.O_RDWR | os.O_CREAT | _NOFOLLOW | getattr(os, "O_NONBLOCK", 0)
                fd = os.open(os.path.join(self.folder, name + ".lock"), flags, 0o644)
                if not stat.S_ISREG(os.fstat(fd).st_mode):
                    raise IsADirectoryError(name)
                fcntl.flock(fd, fcntl.LOCK_EX)
            except (OSError, ImportError, AssertionError):
                if fd is not None:
                    os.close(fd)
                fd = None
        try:
            yield
        finally:
            if fd is not None:
                # released for every process that shares it: a process forked
                # meanwhile (the index's workers that hold files for their
                # checks) keeps the descriptor open after this one closes it
                try:
                    fcntl.flock(fd, fcntl.LOCK_UN)
                except OSError:  # pragma: no cover
                    pass
                os.close(fd)
