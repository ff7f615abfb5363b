"""The project view's work on files, apart from the view itself: the workers
of a cold index and of a round of summaries (``_index_batch``,
``_summary_batch``), what a file's imports reach outside the walk (``_reached``
for a file outside every project, ``_Pruned`` for the folders the project
excludes), and one module's summary from its text (``_summarised``).  Moved
out of ``view.py`` to keep each module short; ``view.py`` is their one user.
"""
from __future__ import annotations

import ast
import os
import re
import warnings
from typing import Any, Dict, FrozenSet, List, NamedTuple, Optional, Set, Tuple

from flake8_taskref.analysis.api import may_spawn, names_a_spawner, summarise, with_words, words_named
from flake8_taskref.analysis.modules import ModuleSummary
from flake8_taskref.analysis.options import Options
from flake8_taskref.project.cache import content_hash, digest
from flake8_taskref.project.entries import STR, dict_of, list_of
from flake8_taskref.project.source import NotAFile, decode, plain_utf8, read_bytes, split_lines
from flake8_taskref.project.modules import Finder, module_name_in, package_root


# a file the index reads: its path, modification time, size, change time, inode
_Stamp = Tuple[str, int, int, int, int]


def _names_spawner(data: bytes, options: Options) -> bool:
    """Does the file name a spawner where it can spawn (the text shortcut)?"""
    if plain_utf8(data) and not names_a_spawner(data, options):
        return False
    return may_spawn(decode(data), options)


def _fork() -> Any:
    """multiprocessing's fork context, where processes can be forked (imported
    only for an index that pays for workers)."""
    import multiprocessing

    return multiprocessing.get_context("fork") if "fork" in multiprocessing.get_all_start_methods() else None


def _index_worker_start() -> None:
    """A worker of the index ends quietly when the pool ends it (SIGTERM), and
    leaves Ctrl-C to the main process (not the handlers it was forked with)."""
    import signal

    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.signal(signal.SIGINT, signal.SIG_IGN)


# What a worker of the index that holds its files for their checks keeps of
# each file that names a spawner: its text's hash, its tree, its summary.
Held = Dict[str, Tuple[str, ast.AST, Optional[ModuleSummary]]]


def _index_batch(
    args: Tuple[List[_Stamp], Options, "_Pruned"], held: Optional[Held] = None,
) -> List[Tuple[Any, ...]]:
    """A worker's share of a cold index: each file's size, time, hash, whether
    it names a spawner, its summary, and the names its imports give that point
    where the walk did not go (``held``: what the worker keeps for the checks
    of the files that name a spawner, ``holders.py``)."""
    batch, options, pruned = args
    results: List[Tuple[Any, ...]] = []
    for path, *stamp in batch:
        try:
            data = read_bytes(path)
        except (OSError, NotAFile):
            continue
        names = _names_spawner(data, options)
        summary = text_hash = None
        if names:  # in part, with no project word known yet (the index's first round)
            lines = split_lines(data)
            text = "".join(lines)
            text_hash = _hash_text(text)
            tree = _parse(text)
            made = _summarised(tree, with_words(options, []), path, lines)
            summary = None if made is None else made.to_json()
            if held is not None and tree is not None:
                held[path] = (text_hash, tree, made)
        results.append((path, stamp, content_hash(data), names, text_hash, summary, pruned.names(path, data)))
    return results


# Outside every project, at most this many modules reached by the checked files'
# imports are read for the index (a bound on what a lone file can cost).
_REACHED_AT_MOST = 2000
# The head of an import statement at a line's start (a backslash may continue
# its line): ``from base import`` (what it imports is read after it: names, a
# parenthesised list over several lines, or ``*``), or ``import`` and its
# names; and the same after a semicolon (searched for only in a text that has
# one: a pattern that tries a semicolon at each character costs 70 % more).
_HEAD = r"[ \t]*(?:from(?:[ \t]|\\\r?\n)+(\.*[\w.]*)(?:[ \t]|\\\r?\n)*import\b|import[ \t]+([\w., \t]+))"
_IMPORT = re.compile("^" + _HEAD, re.MULTILINE)
_IMPORT_AFTER_SEMICOLON = re.compile(";" + _HEAD)
_SEMICOLON_IMPORT = re.compile(r";[ \t]*(?:from|import)\b")
# what a ``from`` import names: a parenthesised list (up to its end), ``*``,
# else names up to the end of the line (a backslash continues it)
_FROM_ITEMS = re.compile(r"(?:[ \t]|\\\r?\n)*(?:\(([^)]*)\)?|\*|((?:[\w., \t]|\\\r?\n)*))")
_COMMENT = re.compile(r"#[^\n]*")


def _reached(
    walked: List[Tuple[str, os.stat_result]], finder: Finder, lone: Tuple[str, ...],
    kept: Optional[Dict[str, bytes]] = None,
) -> List[Tuple[str, os.stat_result]]:
    """The files checked outside every project, and the modules their imports
    reach, transitively (found by name above each importer's top package, as
    the analysis finds them; never a walk of a folder): what the index reads
    where there is no project.  The bytes of each file read here for its
    imports are put in ``kept``: the index takes them from there, so that each
    file is read once."""
    found = list(walked)
    seen = {path for path, _ in found}
    at = 0
    while at < len(found) and len(found) < _REACHED_AT_MOST:
        path = found[at][0]
        at += 1
        try:
            data = read_bytes(path)
        except (OSError, NotAFile):
            continue
        if kept is not None:
            kept[path] = data
        text = decode(data)
        root = package_root(path)
        own = module_name_in(path, root) or ""
        package = own if path.endswith("__init__.py") else own.rpartition(".")[0]
        for name in _imported(text, package):
            module = finder.find(name, (root,))
            if module is None or module in seen:
                continue
            try:
                status = os.stat(module)
            except OSError:
                continue
            seen.add(module)
            found.append((module, status))
    return found


def _unchanged(entry: Any, stat: os.stat_result) -> bool:
    """Is an index's entry that of a file unchanged since: its size,
    modification and change times and inode (as git compares them: a restored
    modification time changes the change time), and the text hash of a file
    that names a spawner?"""
    return (type(entry) is list and len(entry) == 7 and entry[0] == stat.st_mtime_ns
            and entry[1] == stat.st_size and entry[5] == stat.st_ctime_ns and entry[6] == stat.st_ino
            and type(entry[2]) is str and type(entry[3]) is bool
            and (type(entry[4]) is str or (entry[4] is None and not entry[3])))


# the index's names that point where the walk did not go, by importer
_OUTSIDE = dict_of(STR, list_of(STR))


class _Pruned(NamedTuple):
    """What the walk of a project left out by its excludes (folders and
    ``.py`` files), and which import names point there: a module an import
    names is found wherever it lies, but nothing there is walked."""

    paths: List[str]  # sorted
    roots: Tuple[str, ...]  # the project's source roots
    # a word each name that points there spells (the last part of each path)
    words: Tuple[bytes, ...]
    # by root: the dotted names of the folders left out under it (a name
    # points there if it is one or starts with one), and of the files
    under: Dict[str, Tuple[Tuple[str, ...], FrozenSet[str]]]

    @classmethod
    def of(cls, paths: List[str], roots: Tuple[str, ...]) -> "_Pruned":
        parts = sorted({os.path.basename(path)[:-3] if path.endswith(".py") else os.path.basename(path)
                        for path in paths})
        return cls(paths, roots, tuple(part.encode("utf-8", "surrogateescape") for part in parts), {})

    def names(self, path: str, data: bytes, reached: bool = False) -> List[str]:
        """The dotted names the imports of a module name that point where the
        walk did not go (those that can: a name that spells none of the last
        parts of those paths cannot point there, but for a relative import in
        a module ``reached`` there: ``from .helpers import *`` in an excluded
        package's ``__init__.py``)."""
        if not reached and not any(word in data for word in self.words):  # (the cheap question first)
            return []
        root = package_root(path)
        own = module_name_in(path, root) or ""
        package = own if path.endswith("__init__.py") else own.rpartition(".")[0]
        unders = [self._under(other) for other in (root, *(other for other in self.roots if other != root))]
        return sorted({
            name for name in _imported(decode(data), package)
            if any(name in files or any(name == folder or name.startswith(folder + ".") for folder in folders)
                   for folders, files in unders)
        })

    def _under(self, root: str) -> Tuple[Tuple[str, ...], FrozenSet[str]]:
        known = self.under.get(root)
        if known is None:
            folders: List[str] = []
            files: Set[str] = set()
            for path in self.paths:
                if path.endswith(".py"):
                    name = module_name_in(path, root)
                    if name is not None:
                        files.add(name)
                    continue
                name = module_name_in(path + ".py", root)  # (the folder's name, as a module's)
                if name is not None:
                    folders.append(name)
            known = self.under[root] = (tuple(folders), frozenset(files))
        return known


def _imported(text: str, package: str) -> List[str]:
    """The dotted names a module's import statements may name (``from a
    import b``: ``a`` and ``a.b``; ``from a import *``: ``a``), relative ones
    made absolute from ``package`` (the importer's package); a parenthesised
    list over several lines, a backslash's continued line and a statement
    after a semicolon included."""
    names: List[str] = []
    _read_imports(_IMPORT, text, package, names)
    if _SEMICOLON_IMPORT.search(text):
        _read_imports(_IMPORT_AFTER_SEMICOLON, text, package, names)
    return names


def _read_imports(pattern: "re.Pattern[str]", text: str, package: str, names: List[str]) -> None:
    """``_imported``'s reading of the statements whose heads ``pattern``
    finds, into ``names``."""
    at = 0
    while True:
        match = pattern.search(text, at)
        if match is None:
            return
        at = match.end()
        base, plain = match.groups()
        if plain is not None:
            names.extend(item.split()[0] for item in plain.split(",") if item.split())
            continue
        dots = len(base) - len(base.lstrip("."))
        if dots:
            parts = package.split(".") if package else []
            if dots - 1 > len(parts):
                continue
            prefix = ".".join(parts[:len(parts) - (dots - 1)])
            rest = base[dots:]
            base = ".".join(part for part in (prefix, rest) if part)
        if base:
            names.append(base)
        items = _FROM_ITEMS.match(text, at)
        if items is None:  # pragma: no cover - the pattern matches an empty string
            continue
        at = max(at, items.end())  # (the next search starts after the list: each byte is read once)
        listed = items.group(1) if items.group(1) is not None else items.group(2)
        if not listed:  # ``*``, or nothing a name can be read from
            continue
        listed = _COMMENT.sub("", listed).replace("\\", " ")
        names.extend(f"{base}.{item.split()[0]}" if base else item.split()[0]
                     for item in listed.split(",") if item.split() and item.split()[0].isidentifier())


def _summary_key(path: str, words: List[str]) -> str:
    """The cache's key of a module's summary in part: its file, and the
    project's words it was made with (those its text names)."""
    return path if not words else f"{path}\0{digest(words)}"


def _summary_batch(args: Tuple[List[str], Options, FrozenSet[str]]) -> List[Tuple[Any, ...]]:
    """A worker's share of a round of the index: each module's summary in
    part, made with the words it names (``ProjectView._made``; ``known``: the
    words, those of ``_own_words``)."""
    paths, options, known = args
    results: List[Tuple[Any, ...]] = []
    for path in paths:
        try:
            data = read_bytes(path)
        except (OSError, NotAFile):
            continue
        lines = split_lines(data)
        text = "".join(lines)
        own = words_named(text, known)
        made = _summarised(_parse(text), with_words(options, own), path, lines)
        results.append((path, content_hash(data), own, None if made is None else made.to_json()))
    return results


def _summarised(
    tree: Optional[ast.AST], options: Options, path: str, lines: Optional[List[str]] = None,
) -> Optional[ModuleSummary]:
    """A parsed module's summary, in part with its ``lines``, else whole; None
    when it did not parse or cannot be summarised (too deep, out of memory, a
    bug: nothing is known of it, for precision)."""
    if tree is None:
        return None
    try:
        return summarise(tree, options, path, lines=lines)
    except Exception:
        return None


def _hash_text(text: str) -> str:
    """``findings``' key: the hash of a file's text."""
    return content_hash(text.encode("utf-8", "surrogatepass"))


def _text_hash(data: bytes) -> str:
    """The hash of a file's text as the faces read it (``findings``' key)."""
    return _hash_text("".join(split_lines(data)))


def _parse(text: str) -> Optional[ast.AST]:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
