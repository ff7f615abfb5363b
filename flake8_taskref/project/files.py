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
from typing import Callable, Iterator, List, Optional, Sequence, Set, Tuple

__all__ = ["Patterns", "expand", "passed_over"]


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


def _walk(top: str, onerror: Callable[[OSError], None]) -> Iterator[Tuple[str, List[str], List[str]]]:
    """``os.walk(top, onerror=onerror)``, top-down, not following links to
    folders: the same folders and files, but whether a folder is a link is read
    from its directory entry instead of with one ``lstat`` per folder
    (``os.walk`` calls ``os.path.islink`` on each, in case the caller replaced
    the entry meanwhile, which ``expand`` does not do)."""
    stack = [top]
    while stack:
        root = stack.pop()
        listed = _listed(root, onerror)
        if listed is None:
            continue
        folders, files, links = listed
        yield root, folders, files
        stack.extend(os.path.join(root, name) for name in reversed(folders) if name not in links)


def _listed(
    root: str, onerror: Callable[[OSError], None],
) -> Optional[Tuple[List[str], List[str], Set[str]]]:
    """The folders, the other files and the links to folders in ``root``; None
    (after ``onerror``) when it cannot be listed, as ``os.walk`` leaves it out."""
    folders: List[str] = []
    files: List[str] = []
    links: Set[str] = set()
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
                return folders, files, links
            except OSError as error:
                onerror(error)
                return None
            try:
                is_dir = entry.is_dir()
            except OSError:
                is_dir = False
            if not is_dir:
                files.append(entry.name)
                continue
            folders.append(entry.name)
            try:
                is_link = entry.is_symlink()
            except OSError:
                is_link = os.path.islink(entry.path)
            if is_link:
                links.add(entry.name)


def expand(
    paths: Sequence[str], filename_patterns: Sequence[str], exclude: Sequence[str],
    stdin_display_name: str, errors: List[OSError],
) -> Iterator[str]:
    """flake8's ``discover_files.expand_paths``, with the walk's errors kept in
    ``errors`` (flake8 passes over a folder it cannot list)."""
    excludes = Patterns(exclude)
    wanted = Patterns(filename_patterns)

    suffixes = wanted.suffixes

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
        if not os.path.isdir(path):
            yield path
            continue
        for root, folders, files in _walk(path, errors.append):
            # the absolute path of an entry: its folder's, and its name (no
            # separator, never "." or ".."), as os.path.abspath gives it
            top = os.path.abspath(root)
            folders[:] = [name for name in folders if not excluded(join(root, name), join(top, name))]
            for name in files:
                if suffixes is not None and not name.endswith(suffixes):
                    continue
                joined = join(root, name)
                if suffixes is None and not wanted.fnmatch(joined):
                    continue
                if not excluded(joined, join(top, name)):
                    yield joined


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
