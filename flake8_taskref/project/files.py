"""Which files the ``flake8-taskref`` command checks: flake8's own discovery
(``discover_files.expand_paths``), with the same answers, made cheap.

flake8 tests every path met in the walk against the exclude patterns, and each
pattern with its own ``fnmatch`` call, on the file's name and then on its
absolute path: on Home Assistant (49,490 files and folders, most of them not
Python) that is a million ``fnmatch`` calls, about as long as the rest of a run.
Here each list of patterns is compiled once into one regular expression
(``Patterns``), and a file is tested against ``--filename`` before the exclude
patterns (both must let it through, so the order changes nothing).
``tests/test_command_work.py`` compares the files found with flake8's.
Adapted from flake8 (MIT-licensed; its notice is at the end of LICENSE).
"""
from __future__ import annotations

import fnmatch
import os
import re
import stat
from typing import Callable, Dict, Iterator, List, Optional, Sequence, Set, Tuple, Union

from flake8_taskref.project.cache import CACHE_DIR

__all__ = ["Found", "Patterns", "expand", "outside_link", "passed_over", "special_kind"]


class Patterns:
    """flake8's ``utils.fnmatch`` and ``utils.matches_filename`` for one list of
    patterns, compiled once."""

    def __init__(self, patterns: Sequence[str]) -> None:
        self.patterns = tuple(patterns)
        self._match: Optional[Callable[[str], bool]] = None
        if self.patterns:
            self._match = self._compile(self.patterns)
        # Patterns that are all "*" and a literal (--filename's default "*.py"),
        # where a path's case is its own: a path matches when it ends in one of
        # the literals, which only the file's name can hold (no separator in them).
        self.suffixes: Optional[Tuple[str, ...]] = None
        if self.patterns and os.path.normcase("A") == "A" and all(
            pattern[:1] == "*" and not any(char in pattern[1:] for char in "*?[" + os.sep)
            and (os.altsep is None or os.altsep not in pattern) for pattern in self.patterns
        ):
            self.suffixes = tuple(pattern[1:] for pattern in self.patterns)

    @staticmethod
    def _compile(patterns: Sequence[str]) -> Callable[[str], bool]:
        # fnmatch.fnmatch(name, pattern): normcase both, then the translated
        # pattern must match from the start
        translated = [fnmatch.translate(os.path.normcase(pattern)) for pattern in patterns]
        try:
            one = re.compile("|".join(f"(?:{regex})" for regex in translated)).match
        except (re.error, OverflowError, RecursionError):  # pragma: no cover - one at a time
            each = [re.compile(regex).match for regex in translated]
            return lambda name: any(match(name) is not None for match in each)
        return lambda name: one(name) is not None

    def fnmatch(self, name: str) -> bool:
        """flake8's ``utils.fnmatch``: does a pattern match ``name`` (True without patterns)?"""
        return self._match is None or self._match(os.path.normcase(name))

    def matches_filename(self, path: str, absolute: Optional[str] = None) -> bool:
        """flake8's ``utils.matches_filename``: does a pattern match the path's
        last part (not ``.`` or ``..``) or its absolute path (``absolute``, if
        the caller has it)?"""
        if self._match is None:
            return False
        basename = os.path.basename(path)
        if basename not in {".", ".."} and self._match(os.path.normcase(basename)):
            return True
        return self._match(os.path.normcase(os.path.abspath(path) if absolute is None else absolute))


LINK = "link"  # a file's kind in a walk: a symbolic link (to a file, or dangling)


def special_kind(mode: int) -> Optional[str]:
    """What a file that is not a regular file or a folder is, in words (None
    for a regular file or a folder): the command skips it, never reads it."""
    if stat.S_ISREG(mode) or stat.S_ISDIR(mode):
        return None
    if stat.S_ISFIFO(mode):
        return "a named pipe (FIFO)"
    if stat.S_ISCHR(mode):
        return "a character device"
    if stat.S_ISBLK(mode):
        return "a block device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "a file of an unknown kind"


def _walk(top: str, onerror: Callable[[OSError], None]) -> Iterator[Tuple[str, List[str], List[str]]]:
    """``os.walk(top, onerror=onerror)``, top-down, not following links to
    folders (``_walk_kinds`` without the kinds)."""
    for root, folders, files, _ in _walk_kinds(top, onerror):
        yield root, folders, files


def _walk_kinds(
    top: str, onerror: Callable[[OSError], None],
) -> Iterator[Tuple[str, List[str], List[str], Dict[str, str]]]:
    """``os.walk(top, onerror=onerror)``, top-down, not following links to
    folders: the same folders and files, but whether a folder is a link is read
    from its directory entry instead of with one ``lstat`` per folder
    (``os.walk`` calls ``os.path.islink`` on each, in case the caller replaced
    the entry meanwhile, which ``expand`` does not do).  With each folder, the
    kind of its files that are not regular files: ``LINK`` for a symbolic
    link, else what ``special_kind`` says (from the directory entry too)."""
    stack = [top]
    while stack:
        root = stack.pop()
        listed = _listed(root, onerror)
        if listed is None:
            continue
        folders, files, links, kinds = listed
        yield root, folders, files, kinds
        stack.extend(os.path.join(root, name) for name in reversed(folders) if name not in links)


def _listed(
    root: str, onerror: Callable[[OSError], None],
) -> Optional[Tuple[List[str], List[str], Set[str], Dict[str, str]]]:
    """The folders, the other files, the links to folders in ``root`` and the
    kinds of the files that are not regular files; None (after ``onerror``)
    when it cannot be listed, as ``os.walk`` leaves it out."""
    folders: List[str] = []
    files: List[str] = []
    links: Set[str] = set()
    kinds: Dict[str, str] = {}
    try:
        entries = os.scandir(root)
    except OSError as error:
        onerror(error)
        return None
    with entries:
        while True:
            try:
                entry = next(entries)
            except StopIteration:
                return folders, files, links, kinds
            except OSError as error:
                onerror(error)
                return None
            try:  # the entry's type: no system call where the file system gives it
                if entry.is_file(follow_symlinks=False):
                    files.append(entry.name)
                    continue
            except OSError:
                pass
            try:
                is_dir = entry.is_dir()
            except OSError:
                is_dir = False
            try:
                is_link = entry.is_symlink()
            except OSError:
                is_link = os.path.islink(entry.path)
            if is_dir:
                folders.append(entry.name)
                if is_link:
                    links.add(entry.name)
                continue
            files.append(entry.name)
            if is_link:
                kinds[entry.name] = LINK
                continue
            try:
                kind = special_kind(entry.stat(follow_symlinks=False).st_mode)
            except OSError:
                kind = None  # let the read say what is wrong
            if kind is not None:
                kinds[entry.name] = kind


class Found:
    """What ``expand`` found besides the files to check: the folders it could
    not list (``errors``, OSErrors: E902 for the command) and the files it
    skips, with what they are (``skipped``: files that are not regular files,
    never read)."""

    def __init__(self, errors: Optional[List[OSError]] = None) -> None:
        self.errors: List[OSError] = [] if errors is None else errors
        self.skipped: List[Tuple[str, str]] = []


def _real_key(path: str) -> Tuple[str, str]:
    """A file's real folder (with a separator at its end) and name, every link
    and ``..`` resolved: the same for every name of the file but its hard links
    (a pair, not one string: in a walk, the folder's string is one object whose
    hash is computed once)."""
    real = os.path.realpath(path)
    folder, name = os.path.split(real)
    return (folder if folder.endswith(os.sep) else folder + os.sep), name


def expand(
    paths: Sequence[str], filename_patterns: Sequence[str], exclude: Sequence[str],
    stdin_display_name: str, errors: Union[List[OSError], Found],
) -> Iterator[str]:
    """flake8's ``discover_files.expand_paths``, with the walk's errors kept
    (flake8 passes over a folder it cannot list), and four differences
    (docs/command.md, "Which files are checked"):

    * a file is given once, under the first name met (``dup.py ./dup.py
      $PWD/dup.py``, a folder and a file in it, a link and its file: the same
      file once the links are resolved; hard links stay two files);
    * a file that is not a regular file (a named pipe, a device, a socket) is
      not given: it is in ``found.skipped`` with what it is;
    * a folder named ``.taskref_cache`` (the cache's) is never entered, nor
      listed: what the tool keeps there is no Python file, and a cache
      folder another user made may not be listable;
    * a symbolic link to a file met in a folder is given after the folder's
      other files, so that a file inside the folder keeps its own name (one
      that leads outside the folder is checked, and never written:
      ``outside_link``).  A link named on the command line is followed
      wherever it leads, as the user named it.
    """
    found = errors if isinstance(errors, Found) else Found(errors)
    excludes = Patterns(exclude)
    wanted = Patterns(filename_patterns)

    suffixes = wanted.suffixes
    seen: Set[Tuple[str, str]] = set()

    def excluded(arg: str, absolute: Optional[str] = None) -> bool:
        if arg == "-":
            if stdin_display_name == "stdin":
                return False
            arg = stdin_display_name
        return excludes.matches_filename(arg, absolute)

    join = os.path.join
    for path in list(paths) or ["."]:
        if excluded(path):
            continue
        try:
            mode = os.stat(path).st_mode
        except (OSError, ValueError):  # missing, a dangling link...: the read says what (E902)
            mode = stat.S_IFREG
        if stat.S_ISDIR(mode) and os.path.basename(os.path.normpath(path)) == CACHE_DIR:
            continue  # the cache's folder, named: nothing in it to check
        if not stat.S_ISDIR(mode):
            kind = special_kind(mode)
            if kind is not None:
                found.skipped.append((path, kind))
                continue
            key = _real_key(path)
            if key not in seen:
                seen.add(key)
                yield path
            continue
        real_top = os.path.realpath(path)
        real_folders = {path: real_top}
        file_links: List[str] = []
        for root, folders, files, kinds in _walk_kinds(path, found.errors.append):
            # the absolute path of an entry: its folder's, and its name (no
            # separator, never "." or ".."), as os.path.abspath gives it
            top = os.path.abspath(root)
            real_root = real_folders.pop(root)
            real_root = real_root if real_root.endswith(os.sep) else real_root + os.sep
            folders[:] = [name for name in folders
                          if name != CACHE_DIR and not excluded(join(root, name), join(top, name))]
            for name in folders:  # a folder met in the walk is no link: its real path is its parent's
                real_folders[join(root, name)] = real_root + name
            for name in files:
                if suffixes is not None and not name.endswith(suffixes):
                    continue
                joined = join(root, name)
                if suffixes is None and not wanted.fnmatch(joined):
                    continue
                if excluded(joined, join(top, name)):
                    continue
                kind = kinds.get(name) if kinds else None
                if kind == LINK:
                    file_links.append(joined)
                    continue
                if kind is not None:
                    found.skipped.append((joined, kind))
                    continue
                key = (real_root, name)
                if key not in seen:
                    seen.add(key)
                    yield joined
        for link in file_links:
            key = _real_key(link)
            try:
                kind = special_kind(os.stat(link).st_mode)
            except OSError:  # dangling: the read says so (E902)
                kind = None
            if kind is not None:
                found.skipped.append((link, kind))
                continue
            if key not in seen:
                seen.add(key)
                yield link


def _inside(real: str, folder: str) -> bool:
    real_folder = os.path.realpath(folder)
    return real.startswith(real_folder if real_folder.endswith(os.sep) else real_folder + os.sep)


def outside_link(path: str, paths: Sequence[str]) -> Optional[str]:
    """The folder named on the command line (``paths``) in which ``path`` was
    found, if ``path`` is a symbolic link that leads outside it (None for a file
    that is not a link, a link named on the command line, or one whose file
    is inside the folder): ``--fix`` writes no file outside the folders it
    is given.  Asked only of files to be written (an ``lstat`` each)."""
    if not os.path.islink(path):
        return None
    real = os.path.realpath(path)
    folders = []
    for named in paths:
        if os.path.isdir(named):
            folders.append(named)
        elif os.path.realpath(named) == real:
            return None  # named on the command line (under another name, perhaps)
    found_in = [folder for folder in folders if path.startswith(os.path.join(folder, ""))]
    if not found_in or any(_inside(real, folder) for folder in folders):
        return None
    return found_in[0]


def passed_over(path: str, top: str, exclude: Sequence[str]) -> bool:
    """Would ``expand`` pass over the file ``path`` when it walks the folder
    ``top``: is ``top``, a folder between it and the file, or the file
    excluded?  (The ``--filename`` patterns are not asked.)  A file outside
    ``top`` is asked alone, as a file named on the command line."""
    excludes = Patterns(exclude)
    absolute, root = os.path.abspath(path), os.path.abspath(top)
    try:
        inside = os.path.commonpath([absolute, root]) == root
    except ValueError:  # another drive
        inside = False
    if not inside:
        return excludes.matches_filename(absolute)
    if excludes.matches_filename(os.curdir, root):  # the walk's top, as "." names it
        return True
    here = root
    for part in os.path.relpath(absolute, root).split(os.sep):
        here = os.path.join(here, part)
        if excludes.matches_filename(here, here):
            return True
    return False
