"""The project view: the summaries of the project's modules, made on demand, and
the findings of a file analysed with them.  Every face that checks files (the
flake8 plugin, the ``flake8-taskref`` command, the editor server) checks each
file through ``ProjectView.findings``, so that a file's findings never depend on
the face, on the order in which files are checked or on what the cache holds.

**Summaries.**  The analysis asks for another module by its dotted name
(``analysis/modules.py``'s ``View``); the view finds its file under the source
roots (``modules.py``), and gives its summary: from memory, from the cache (if
the file is unchanged), or made now: the file is read, parsed and summarised
(``analysis.api.summarise``).  A summary depends on its module's text alone (the
calls it makes of other modules are named in it, and the reader looks them
up), so a summary is made without asking for any other, whatever the imports
between the modules, and the cache keeps it by the file's content.  A module
whose file cannot be read or parsed has no summary (the analysis then stays
silent about it).

**Findings.**  A file's findings depend on its text and on the summaries its
analysis used: the cache keeps them with both, and uses them while neither has
changed.  The files the index parses for their summaries are kept parsed until
they are checked, so that a run parses each once.

**Words.**  The text shortcut passes over a file that names no spawner; the
project's own spawners are named by their functions' names.  ``words()`` makes
the project's index once (cached): every module under the source roots is read
(and, in folders the project's excludes leave out of the walk, those that the
imports of the modules read name: ``_Pruned``), those that name a spawner are
summarised, and the names under which their
functions and methods that return new tasks are called (re-exports included)
are the project's words; modules that name one of those are summarised in turn,
until no new word appears.

**The editor's texts.**  The editor server checks its documents in threads
(the view's lock makes one question at a time of it, while each file's own
analysis runs beside the others), asks which modules a file's findings
consulted (``consulted``), and gives the view the text of an open module that
the editor holds unsaved (``set_open_text``): its summary is made from that
text (and kept by it), until the text is saved or closed.  The index (the
project's words) reads the files on disk.
"""
from __future__ import annotations

import ast
import os
import sys
import threading
from typing import TYPE_CHECKING, Any, Callable, Dict, FrozenSet, List, Optional, Sequence, Set, Tuple, Union

from flake8_taskref import __version__
from flake8_taskref.analysis.api import lint_file, may_spawn, names_any, spawn_tokens, with_words, words_named
from flake8_taskref.analysis.messages import SpanError
from flake8_taskref.analysis.modules import Function, ModuleSummary, Resolver, View
from flake8_taskref.analysis.options import Options
from flake8_taskref.analysis.names import TASK_SPAWNERS
from flake8_taskref.project.cache import Cache, content_hash, digest
from flake8_taskref.project.entries import (
    error_from_json,
    error_to_json,
    findings_entry,
    index_entry,
    summary_entry,
)
from flake8_taskref.project.source import NotAFile, collector_paused, decode, read_bytes, split_lines
from flake8_taskref.project.files import Patterns
from flake8_taskref.project.modules import Finder, package_root, project_roots, walk_modules
from flake8_taskref.project.narrowing import Closure, names_closure
from flake8_taskref.project.settings import ProjectSettings
from flake8_taskref.project.summarising import (
    _OUTSIDE,
    _Pruned,
    _Stamp,
    _fork,
    _hash_text,
    _index_worker_start,
    _names_spawner,
    _parse,
    _reached,
    _summarised,
    _summary_batch,
    _summary_key,
    _text_hash,
    _unchanged,
)

if TYPE_CHECKING:  # pragma: no cover
    from flake8_taskref.project.holders import Holders

__all__ = ["ProjectView", "forget_all", "open_view", "options_digest", "project_view"]

_NONE = "-"
_WHOLE = "whole:"  # a use of a module's whole summary
# (module name, its file or None, digest of its summary or _NONE)
Consult = Tuple[str, Optional[str], str]
# what the analysis of a file asked: (module name, its file, the summary, whole?)
_Consulted = Tuple[str, Optional[str], Optional[ModuleSummary], bool]


def options_digest(options: Options) -> str:
    """What in the options changes a summary or a finding (not the words)."""
    return digest([sorted(options.spawners), sorted(options.loop_names), sorted(options.timeouts),
                   options.collections, options.gathers, options.waits])


class _Frame:
    """A file's findings being made: the modules its analysis consulted (the
    summary in part or whole it got; digested only if the findings are kept)."""

    __slots__ = ("path", "consulted")

    def __init__(self, path: str) -> None:
        self.path = path
        self.consulted: List[_Consulted] = []


class _ModuleView:
    """The view one file's analysis gets (``ProjectView.view_for``): a module's
    summary in part by its dotted name, and its whole summary (``whole``); each
    answer noted in the consumer's frame."""

    __slots__ = ("project", "roots", "consumer")

    def __init__(self, project: "ProjectView", roots: Tuple[str, ...], consumer: Optional[_Frame]) -> None:
        self.project = project
        self.roots = roots
        self.consumer = consumer

    def __call__(self, name: str) -> Optional[ModuleSummary]:
        return self._ask(name, False)

    def whole(self, name: str) -> Optional[ModuleSummary]:
        return self._ask(name, True)

    def _ask(self, name: str, whole: bool) -> Optional[ModuleSummary]:
        project = self.project
        with project._lock:
            found = project._finder.find(name, self.roots)
            summary = None if found is None else project.whole(found) if whole else project.summary(found)
        if self.consumer is not None:
            self.consumer.consulted.append((name, found, summary, whole))
        return summary


class ProjectView:
    """See the module docstring.  ``src``: the configured source roots;
    ``cache``: the persistent cache (None: none); ``excluded(path)``: files and
    folders the index does not walk (flake8's excludes); ``keep_trees``: keep
    the trees the index parses for the checks of their files (False for a
    face that hands each check its own tree: flake8 parses every file, and
    trees kept for nothing made each of its collections walk them)."""

    def __init__(
        self,
        options: Options,
        project_root: str,
        src: Sequence[str] = (),
        cache: Optional[Cache] = None,
        excluded: Optional[Callable[[str], bool]] = None,
        lone: Optional[Tuple[str, ...]] = None,
        keep_trees: bool = True,
    ) -> None:
        self.options = options
        self.keep_trees = keep_trees
        self.project_root = os.path.abspath(project_root)
        # outside every project (``lone``: the paths checked) no source root:
        # a module is found above its importer's top package, and the index
        # reads the paths checked alone, never the folder around them
        self.roots = project_roots(self.project_root, src) if lone is None else ()
        self._walked: Tuple[str, ...] = self.roots if lone is None else lone
        self._lone = lone
        self.cache = cache if cache is not None else Cache(None)
        self.excluded = excluded
        self._finder = Finder(self.roots if lone is None else None)
        self._summaries: Dict[str, Optional[ModuleSummary]] = {}  # by file, made in part
        self._wholes: Dict[str, Optional[ModuleSummary]] = {}  # by file, whole
        self._digests: Dict[int, Tuple[ModuleSummary, str]] = {}
        self._shown_summaries: Dict[int, Tuple[ModuleSummary, ModuleSummary]] = {}
        # the project's words known so far (the index's rounds add to them): a
        # summary in part is made with those its module names
        self._known: FrozenSet[str] = frozenset()
        self._tokens = frozenset(spawn_tokens(options))
        # the trees of files the index parsed that are to be checked: (text's hash, tree)
        self._trees: Dict[str, Tuple[str, ast.AST]] = {}
        self._hashes: Dict[str, Optional[str]] = {}
        self._words: Optional[FrozenSet[str]] = None
        self._words_digest: Optional[Tuple[FrozenSet[str], str]] = None
        self._cwd: Optional[str] = None
        # the index: each file's size, time, content hash and whether it names a
        # spawner of asyncio's; the files that name any spawner
        self._files: Optional[Dict[str, List[Any]]] = None
        self._hot: FrozenSet[str] = frozenset()
        self._findings: Dict[str, Tuple[str, List[SpanError]]] = {}  # by path: (text's hash, findings)
        self._uses: Dict[str, FrozenSet[str]] = {}  # by path: the files its findings consulted
        self._options_key = options_digest(options)
        self._lock = threading.RLock()  # one question at a time (the editor server's threads)
        self._generation = 0  # counts forget() and changed(): findings made across one are not kept
        self._holders: Optional[Holders] = None  # the index's workers, holding files for their checks

    # ------------------------------------------------------------ modules
    def roots_for(self, path: str) -> Tuple[str, ...]:
        """Where the modules a file imports are looked for: above its own top
        package, then the project's source roots."""
        own = package_root(path)
        return (own,) + tuple(root for root in self.roots if root != own)

    def view_for(self, path: str, consumer: Optional[_Frame] = None) -> View:
        """The view the analysis of ``path`` gets: a module's summary by its
        dotted name, found from that file; each answer is noted in
        ``consumer`` (what a summary or a file's findings used)."""
        return _ModuleView(self, self.roots_for(path), consumer)

    def summary(self, path: str) -> Optional[ModuleSummary]:
        """The summary of the module in ``path``, made in part (None if it
        cannot be read or parsed)."""
        path = os.path.abspath(path)
        with self._lock:
            if path not in self._summaries:
                self._summaries[path] = self._make(path)
            return self._shown(self._summaries[path])

    def whole(self, path: str) -> Optional[ModuleSummary]:
        """The whole summary of the module in ``path``: every function entered
        (asked when what a function the summary in part did not enter does, or
        the attributes of a class, are needed)."""
        path = os.path.abspath(path)
        with self._lock:
            if path not in self._wholes:
                self._wholes[path] = self._make_whole(path)
            return self._shown(self._wholes[path])

    def _shown(self, summary: Optional[ModuleSummary]) -> Optional[ModuleSummary]:
        """A summary as messages name its module's file: relative to the
        current folder when it is below it, as a finding's own path is
        (``src/app/tasks.py``, not ``app/tasks.py`` under its source root),
        else to the project root (the editor server's current folder is
        anywhere), else relative to the current folder all the same
        (``../proj/src/app/tasks.py``, as flake8 names a file given so), else
        absolute (another drive); made once per summary."""
        if summary is None or not summary.file:
            return summary
        known = self._shown_summaries.get(id(summary))
        if known is None or known[0] is not summary:
            if self._cwd is None:
                self._cwd = os.getcwd()
            absolute = os.path.normpath(os.path.join(self._cwd, summary.file))
            here = _relative(absolute, self._cwd)
            below = [path for path in (here, _relative(absolute, self.project_root))
                     if path is not None and not path.startswith(os.pardir)]
            shown = below[0] if below else here or absolute
            known = self._shown_summaries[id(summary)] = (summary, summary._replace(path=shown))
        return known[1]

    def _make_whole(self, path: str) -> Optional[ModuleSummary]:
        data = self._read(path)
        if data is None:
            return None
        hashed = content_hash(data)
        cached = summary_entry(self.cache.get("whole", path), hashed)
        if cached is not None:
            return cached[0]
        summary = _summarised(_parse("".join(split_lines(data))), self.options, path)
        if self.cache.enabled:
            made = None if summary is None else summary.to_json()
            self.cache.put("whole", path, {"hash": hashed, "summary": made})
        return summary

    def digest_of(self, summary: Optional[ModuleSummary]) -> str:
        """A summary's digest, made once per summary."""
        if summary is None:
            return _NONE
        known = self._digests.get(id(summary))
        if known is None or known[0] is not summary:
            known = self._digests[id(summary)] = (summary, _digest_of(summary))
        return known[1]

    def _make(self, path: str) -> Optional[ModuleSummary]:
        """The summary of one module: from the cache if the file is unchanged,
        else made (and the tree kept for its check, if the file may have
        findings)."""
        data = self._read(path)
        return None if data is None else self._made(path, data, content_hash(data))

    def _made(self, path: str, data: bytes, hashed: str) -> Optional[ModuleSummary]:
        """``_make`` of a file read already: its summary in part, made with the
        project's words it names (the text shortcut of a check), and kept by
        its content and those words."""
        lines = split_lines(data)
        text = "".join(lines)
        own = self._own_words(text)
        cached = summary_entry(self.cache.get("summary", _summary_key(path, own)), hashed)
        if cached is not None:
            return cached[0]
        parsed = self._trees.get(path)
        text_hash = _hash_text(text) if parsed is not None else None
        tree = parsed[1] if parsed is not None and parsed[0] == text_hash else _parse(text)
        summary = _summarised(tree, with_words(self.options, own), path, lines)
        if tree is not None and self.keep_trees and (
                _names_spawner(data, self.options) or (own and names_any(text, own))):
            self._trees[path] = (text_hash or _hash_text(text), tree)  # its check will need it: parsed once
        if self.cache.enabled:
            self.cache.put("summary", _summary_key(path, own), {
                "hash": hashed, "summary": None if summary is None else summary.to_json(),
            })
        return summary

    def _still_valid(self, path: str, uses: List[List[Any]]) -> bool:
        """Does each module a cached entry used still resolve to the same file,
        with the same summary?"""
        roots = self.roots_for(path)
        for name, found, summary_digest in uses:
            now = self._finder.find(name, roots)
            if now != found:
                return False
            if now is None:
                continue
            if summary_digest.startswith(_WHOLE):
                if _WHOLE + self.digest_of(self.whole(now)) != summary_digest:
                    return False
            elif self.digest_of(self.summary(now)) != summary_digest:
                return False
        return True

    def _read(self, path: str) -> Optional[bytes]:
        opened = _OPEN.get(path)
        if opened is not None:
            return opened
        try:
            return read_bytes(path)
        except (OSError, NotAFile):
            return None

    # ----------------------------------------------------------- findings
    def findings(
        self, path: str, tree: Union[ast.AST, Callable[[], ast.AST]], lines: Optional[Sequence[str]],
    ) -> List[SpanError]:
        """What the analysis reports for one file (``path`` as the face names
        it, standard input by its display name), with the project's words and
        the other modules' summaries; cached by the file's text and the
        summaries it used.  ``tree``: the parsed file, or a function that
        parses it (called only when the cache cannot answer; what it raises
        goes to the caller)."""
        generation = self._generation
        options = with_words(self.options, self.words())
        if path.endswith((".py", ".pyi")):
            path = os.path.abspath(path)
        text = "".join(lines) if lines is not None else None
        if text is not None and not may_spawn(text, options):
            return []
        hashed = _hash_text(text) if text is not None else None
        if hashed is not None:
            with self._lock:
                known = self._kept_findings(path, hashed)
            if known is not None:
                return known
        parsed = self._trees.pop(path, None)
        if not callable(tree):
            parsed_tree = tree
        elif parsed is not None and hashed is not None and parsed[0] == hashed:
            parsed_tree = parsed[1]  # the index parsed it already
        else:
            parsed_tree = tree()
        frame = _Frame(path)
        errors = lint_file(parsed_tree, lines, options, path, self.view_for(path, frame), passed=text)
        if hashed is not None:
            with self._lock:
                if generation == self._generation:  # (else made with what was forgotten meanwhile)
                    self._keep_findings(path, hashed, frame.consulted, errors)
                else:
                    self._uses[path] = frozenset(found for _, found, _, _ in frame.consulted if found)
        return errors

    def consulted(self, path: str) -> FrozenSet[str]:
        """The files of the modules that the last findings of ``path`` (as
        ``findings`` got it) consulted."""
        if path.endswith((".py", ".pyi")):
            path = os.path.abspath(path)
        return self._uses.get(path, frozenset())

    def _kept_findings(self, path: str, hashed: str) -> Optional[List[SpanError]]:
        """A file's findings for the text of this hash, kept by this process or
        the cache (one entry per file: the last text checked, and what it
        used, valid while the project's words and those summaries are the same)."""
        found = self._findings.get(path)
        if found is not None and found[0] == hashed:
            return list(found[1])
        cached = findings_entry(self.cache.get("findings", path), hashed, self._words_key())
        if cached is not None and self._still_valid(path, cached["uses"]):
            errors = [error_from_json(item) for item in cached["findings"]]
            self._findings[path] = (hashed, errors)
            self._uses[path] = frozenset(str(found) for _, found, _ in cached["uses"] if found)
            return list(errors)
        return None

    def _keep_findings(
        self, path: str, hashed: str, consulted: List[_Consulted], errors: List[SpanError],
    ) -> None:
        self._findings[path] = (hashed, list(errors))
        self._uses[path] = frozenset(found for _, found, _, _ in consulted if found is not None)
        if not self.cache.enabled:
            return
        uses: List[List[Any]] = [  # lists (``Consult``s), as the reader checks them
            [name, found, (_WHOLE if whole else "") + self.digest_of(summary)]
            for name, found, summary, whole in consulted
        ]
        self.cache.put("findings", path, {
            "hash": hashed, "words": self._words_key(), "uses": uses,
            "findings": [error_to_json(e) for e in errors],
        })

    def _words_key(self) -> str:
        """The project's words, which a file's findings depend on too (a call
        of a name that is no word is not looked up)."""
        words = self.words()
        if self._words_digest is None or self._words_digest[0] is not words:
            self._words_digest = (words, digest(sorted(words)))
        return self._words_digest[1]

    def forget(self) -> None:
        """Forget what this process knows of the project (a long-running face,
        the editor server, calls it when files change on disk): the next
        questions are answered from the cache, which checks each file's
        content, or made again."""
        with self._lock:
            self._forget()

    def changed(self, path: str) -> None:
        """A module's text changed in the editor (``set_open_text``): its
        summaries are made again, and the findings that consulted it too."""
        with self._lock:
            self._generation += 1
            for made in (self._summaries.pop(path, None), self._wholes.pop(path, None)):
                if made is not None:  # (its summary as messages name its file: made again too)
                    self._shown_summaries.pop(id(made), None)
            self._trees.pop(path, None)
            for user in [user for user, uses in self._uses.items() if path in uses]:
                self._findings.pop(user, None)

    def _forget(self) -> None:
        self._generation += 1
        self._uses.clear()
        self._summaries.clear()
        self._wholes.clear()
        self._digests.clear()
        self._shown_summaries.clear()
        self._known = frozenset()
        self._trees.clear()
        self._findings.clear()
        self._words = None
        self._files = None
        self._cwd = None
        self._finder = Finder(self.roots if self._lone is None else None)

    # -------------------------------------------------------------- words
    def set_words(self, words: FrozenSet[str]) -> None:
        """The project's words, found already (by the process that started this
        one: the command's workers get them from the main process)."""
        self._words = self._known = words

    def words(self, jobs: int = 1, hold: bool = False) -> FrozenSet[str]:
        """The names of the project's spawners (see the module docstring);
        ``jobs``: the worker processes a cold index of many files may use;
        ``hold``: they hold the files they parse for their checks (``holders``)."""
        with self._lock:
            if self._words is None:
                with self.cache.lock("index"), collector_paused():
                    self._words = self._index(jobs, hold)
            return self._words

    def holders(self) -> Optional[Holders]:
        """The workers of this run's index that hold files for their checks,
        if any (given once: the caller ends them)."""
        holders, self._holders = self._holders, None
        return holders

    def _index(self, jobs: int = 1, hold: bool = False) -> FrozenSet[str]:
        # (each entry's shape checked: anything else is a miss)
        previous = index_entry(self.cache.get("index", self.project_root)) or {}
        same_roots = previous.get("roots") == list(self._walked)
        files: Dict[str, List[Any]] = {}
        todo: List[_Stamp] = []
        pruned_paths: List[str] = []
        walked = list(walk_modules(self._walked, self.excluded, pruned_paths if self._lone is None else None))
        # what the walk left out by the project's excludes: the modules an
        # import names there are reached from their importers (the names
        # that point there kept with the index, by importer)
        pruned = _Pruned.of(sorted(set(pruned_paths)), self.roots)
        before_outside = previous.get("outside", {})
        if previous.get("pruned", []) != pruned.paths or not _OUTSIDE(before_outside):
            same_roots = False  # which names point there is known of no file: each is read again
            before_outside = {}
        known: Dict[str, List[Any]] = previous.get("files", {}) if same_roots else {}
        outside: Dict[str, List[str]] = {}
        kept: Dict[str, bytes] = {}  # what _reached read already
        if self._lone is not None:
            walked = _reached(walked, self._finder, self._lone, kept)
        for path, stat in walked:
            entry = known.get(path)
            if path in _OPEN:  # the editor's text: read now, and never kept as the file's
                todo.append((path, -1, -1, -1, -1))
            elif entry is not None and _unchanged(entry, stat):
                files[path] = entry
                if path in before_outside:
                    outside[path] = before_outside[path]
            else:
                todo.append((path, stat.st_mtime_ns, stat.st_size, stat.st_ctime_ns, stat.st_ino))
        fork = _fork() if jobs >= 2 and len(todo) >= _FILES_PER_WORKER * 2 else None
        if fork is not None:
            count = min(jobs, len(todo) // _FILES_PER_WORKER)
            self._index_in_workers(fork, todo, files, count, pruned, outside, hold)
        else:
            for stamp in todo:
                self._index_file(stamp, files, pruned, outside, kept.pop(stamp[0], None))
        # the modules reached through the names that point where the walk did not go
        reach = sorted(outside)
        roots_by_folder: Dict[str, Tuple[str, ...]] = {}  # (the same for the modules of one folder)
        while reach:
            importer = reach.pop()
            folder = os.path.dirname(importer)
            roots = roots_by_folder.get(folder)
            if roots is None:
                roots = roots_by_folder[folder] = self.roots_for(importer)
            plain: Set[str] = set()  # names found as a module that is no package
            for name in outside[importer]:  # (sorted: a name before the names under it)
                if name.rpartition(".")[0] in plain:
                    continue  # a name in a module (``from a.util import spawn``): no module of its own
                module = self._finder.find(name, roots)
                if module is not None and not module.endswith("__init__.py"):
                    plain.add(name)
                if module is None or module in files:
                    continue
                try:
                    stat = os.stat(module)
                except OSError:
                    continue
                entry = known.get(module)
                if entry is not None and module not in _OPEN and _unchanged(entry, stat):
                    files[module] = entry
                    if module in before_outside:
                        outside[module] = before_outside[module]
                else:
                    opened = module in _OPEN
                    todo.append((module, -1, -1, -1, -1) if opened else
                                (module, stat.st_mtime_ns, stat.st_size, stat.st_ctime_ns, stat.st_ino))
                    self._index_file(todo[-1], files, pruned, outside, None, reached=True)
                if module in outside:
                    reach.append(module)
        changed = bool(todo) or set(files) != set(known)
        self._files = files
        if not changed and "words" in previous and "hot" in previous:
            self._hot = frozenset(previous["hot"])
            self._known = frozenset(previous["words"])
            return self._known
        for path, entry in files.items():
            # unchanged: its summary of the first round (no word known yet) from the cache
            if entry[3] and path not in self._summaries:
                cached = summary_entry(self.cache.get("summary", _summary_key(path, [])), entry[2])
                if cached is not None:
                    self._summaries[path] = cached[0]
        # Rounds: the words found so far make more functions hot in the summaries
        # in part of the modules that name them, and more modules hot; a module
        # that names a new word is summarised again, with it.  The words only
        # grow, and each summary is made, in the end, with the words its module
        # names (as it is when asked for later).
        words: Dict[str, Optional[FrozenSet[str]]] = {}
        done: Set[str] = set()
        self._known = frozenset()
        hot = [path for path, entry in files.items() if entry[3]]
        # (the modules summarised so far that the walk left out, too: a helper
        # found through an import, in an excluded folder)
        closure = Closure(
            lambda: list(files) + [path for path in self._summaries if path not in files], self._read)
        narrowed: FrozenSet[str] = frozenset()  # the method words narrowed (``narrowing``)
        waiting: Dict[str, Set[str]] = {}  # a module naming only those, none of the closure: which

        def heat(path: str, data: bytes) -> None:
            hot.append(path)
            if path not in done:
                files[path] = files[path][:4] + [_text_hash(data)] + files[path][5:]

        while hot:
            before = dict(words)
            for path in hot:
                done.add(path)
                for word, owners in self._spawner_words(path).items():
                    _add_word(words, word, owners)
            if words == before:
                break  # no new name, no new owner: no other module can name a spawner now
            # (a word that is one of asyncio's spawners' names changes no
            # summary: its module names a spawner already, and is done)
            new = frozenset(words) - self._known - self._tokens
            self._known = frozenset(words)
            methods = {word: owners for word, owners in words.items()
                       if owners is not None and word not in self._tokens}
            gained = frozenset(closure.add(set().union(*methods.values())))
            now_narrowed = frozenset(() if closure.failed else methods)
            released, narrowed = narrowed - now_narrowed, now_narrowed
            hot = []
            if not new and not released and not gained:
                break
            ascii_new = [word.encode("ascii") for word in new if word.isascii()]
            names = frozenset(closure.names)
            fresh: Set[str] = set()
            for path in closure.modules() if new else ():
                data = self._read(path)
                if data is None or (len(ascii_new) == len(new) and not any(w in data for w in ascii_new)):
                    continue
                text = decode(data)
                if path in self._summaries and words_named(text, new):
                    del self._summaries[path]  # made without the new words: again, when asked
                if path not in files:
                    continue
                if names_any(text, new - narrowed):
                    heat(path, data)
                    continue
                named = {word for word in new & narrowed if names_any(text, (word,))}
                if named and names_closure(text, names):
                    heat(path, data)
                elif named:
                    waiting.setdefault(path, set()).update(named)
                    fresh.add(path)
            if released or gained:  # a module waiting may name a method word where it is used now
                heated = set(hot)
                for path, named in list(waiting.items()):
                    if path in fresh and not named & released:
                        continue  # (looked at with the whole closure this round)
                    data = None if path in heated else self._read(path)
                    if data is None:  # (hot already, or unreadable)
                        del waiting[path]
                    elif named & released or names_closure(decode(data), gained):
                        heat(path, data)
                        del waiting[path]
            self._summarise_in_workers([path for path in hot if path not in self._summaries], jobs)
        # the files that name a spawner where it can spawn, the project's own
        # included: the others can have no finding (``cold``)
        self._hot = frozenset(done) | frozenset(hot)
        result = frozenset(words)
        self.cache.put("index", self.project_root, {
            "roots": list(self._walked), "files": files, "words": sorted(result), "hot": sorted(self._hot),
            "pruned": pruned.paths, "outside": outside,
        })
        return result

    def _index_file(
        self, stamp: _Stamp, files: Dict[str, List[Any]], pruned: "_Pruned", outside: Dict[str, List[str]],
        data: Optional[bytes], reached: bool = False,
    ) -> None:
        """Read (unless ``data`` is its text, read already), hash and scan one
        file of the index, summarise it if it names a spawner, and note the
        names its imports give that point where the walk did not go
        (``reached``: a module found there, see ``_Pruned.names``)."""
        path, mtime, size, ctime, inode = stamp
        if data is None or path in _OPEN:
            data = self._read(path)
        if data is None:
            return
        hashed = content_hash(data)
        names = _names_spawner(data, self.options)
        text_hash = _text_hash(data) if names else None
        files[path] = [mtime, size, hashed, names, text_hash, ctime, inode]
        if names and path not in self._summaries:  # summarised now, read once
            self._summaries[path] = self._made(path, data, hashed)
        pointing = pruned.names(path, data, reached)
        if pointing:
            outside[path] = pointing

    def _index_in_workers(
        self, fork: Any, todo: List[_Stamp], files: Dict[str, List[Any]], count: int,
        pruned: "_Pruned", outside: Dict[str, List[str]], hold: bool = False,
    ) -> None:
        """Read, hash and scan the files of a cold index in ``count`` worker
        processes, which summarise those that name a spawner too (the summary
        of a module depends on its text alone); ``hold``: they are ``Holders``,
        kept for the checks of those files."""
        from flake8_taskref.project.holders import index_in_workers

        self._holders = index_in_workers(self, fork, todo, files, count, pruned, outside, hold)

    def _own_words(self, text: str) -> List[str]:
        """The project's words known so far that a module's text names, but
        those that name a spawner of asyncio's or a configured one (which make
        the same lines hot): what its summary in part is made with."""
        return words_named(text, self._known - self._tokens) if self._known else []

    def _summarise_in_workers(self, paths: List[str], jobs: int) -> None:
        """The summaries in part of a round of the index (the modules that name
        the words found in the round before), made in worker processes when
        there are enough of them (each made as ``_made`` makes it)."""
        count = min(jobs, len(paths) // _SUMMARIES_PER_WORKER)
        fork = _fork() if count >= 2 else None
        if fork is None:
            return
        batches = [paths[start::count] for start in range(count)]
        pool = fork.Pool(count, initializer=_index_worker_start)
        try:
            args = [(batch, self.options, self._known - self._tokens) for batch in batches]
            for results in pool.imap_unordered(_summary_batch, args):
                for path, hashed, own, summary in results:
                    self._summaries[path] = None if summary is None else ModuleSummary.from_json(summary)
                    if self.cache.enabled:
                        key = _summary_key(path, own)
                        self.cache.put("summary", key, {"hash": hashed, "summary": summary})
            pool.close()
            pool.join()
        finally:
            pool.terminate()

    def cold(self, path: str) -> bool:
        """Has a file no finding, as the index and the cache say: it is in the
        index, which found it unchanged (its size, modification and change times and inode) in
        its walk of this run or read it then, and it names no
        spawner where it can spawn (the project's spawners included), or was
        checked with this text, these words and these summaries of the modules
        it uses, without a finding?  Such a file need not even be read (as
        Ruff's cache skips a file it has seen)."""
        if self._words is None or self._files is None:
            return False
        if self._cwd is None:
            self._cwd = os.getcwd()
        absolute = os.path.normpath(os.path.join(self._cwd, path))
        entry = self._files.get(absolute)
        if entry is None:
            return False
        text_hash = None
        if absolute in self._hot:
            text_hash = entry[4]
            if text_hash is None:
                return False
        # the index's walk found it unchanged (or read it) in this run
        return text_hash is None or self._kept_findings(absolute, text_hash) == []

    def _spawner_words(self, path: str) -> Dict[str, Optional[FrozenSet[str]]]:
        """The names under which a module's spawners are called: its functions
        and methods that return new tasks (the calls of other modules they
        return looked up), and its names bound to one; each with the names of
        the classes it is a method of (``narrowing``), or None for a function
        or a name bound to one."""
        summary = self.summary(path)
        if summary is None:
            return {}
        resolver = Resolver(self.view_for(path, None), summary.name)
        resolver.set_own(summary)
        words: Dict[str, Optional[FrozenSet[str]]] = {}
        for qualname, info in summary.functions:
            if not (info.returns or info.decorator):
                continue
            if _may_return_task(resolver, Function(summary, qualname, info)):
                owner, _, word = qualname.rpartition(".")
                owners = frozenset(owner.split(".")) if owner and summary.klass(owner) is not None else None
                _add_word(words, word, owners)
        roots = self.roots_for(path)
        for name, targets in summary.aliases:
            # a name bound to another module's spawner under its own name is a
            # word already (that module names a spawner, and is summarised); a
            # name bound to a module (``import app.util as u``) is no spawner.
            # Nor is one bound to a name that is no word yet: if it becomes one,
            # this module names it (in its import), and is looked at again.
            if all(target in TASK_SPAWNERS for target in targets):
                # bound to asyncio's spawner (``spawn = asyncio.create_task``, also
                # on each branch of a version switch)
                if any(target.rpartition(".")[2] != name for target in targets):
                    _add_word(words, name, None)
                continue
            if all(target.rpartition(".")[2] == name or target.rpartition(".")[2] not in self._known
                   or self._finder.find(target, roots) is not None for target in targets):
                continue
            found = resolver.function(f"{summary.name}.{name}")
            if found is not None and resolver.returns_task(found):
                _add_word(words, name, None)
        return words


def _add_word(
    words: Dict[str, Optional[FrozenSet[str]]], word: str, owners: Optional[FrozenSet[str]],
) -> None:
    """A word and its owners, merged with what a module gave it already (None,
    a function or an alias, wins)."""
    if word in words:
        before = words[word]
        owners = None if before is None or owners is None else before | owners
    words[word] = owners


def _may_return_task(resolver: Resolver, function: Function) -> bool:
    """Can a call of the function (or ``await`` of it, a coroutine function's)
    give a new task, on some paths at least?"""
    if resolver.returns_task(function, or_none=True):
        return True
    return function.info.is_async and resolver.returns_task(function, awaited=True, or_none=True)


# A cold index of this many files or more per worker is read in worker
# processes (where processes can be forked: the workers need no setting up).
_FILES_PER_WORKER = 1000
# A round of the index with this many modules to summarise per worker or more
# summarises them in worker processes.
_SUMMARIES_PER_WORKER = 40


# The project view's modules whose code shapes the index's entries.
_INDEX_MODULES = ("entries.py", "modules.py", "narrowing.py", "summarising.py", "view.py")


def _digest_of(summary: Optional[ModuleSummary]) -> str:
    return _NONE if summary is None else digest(summary.to_json())


def cache_namespace(options: Options) -> str:
    """The cache's folder for this version of the tool, of Python (``marshal``'s
    format is Python's) and these options.  The version is that of the
    analysis's code as installed (its files' sizes and times), and of the
    project view's modules that make what the index keeps (which imports
    it reads, which folders it reaches), so that a checkout being worked on
    never reads what an older analysis or index wrote."""
    import flake8_taskref.analysis as analysis

    folder = os.path.dirname(analysis.__file__)
    here = os.path.dirname(os.path.abspath(__file__))
    modules = [(folder, name) for name in sorted(os.listdir(folder)) if name.endswith(".py")]
    stamps = []
    for where, name in modules + [(here, name) for name in _INDEX_MODULES]:
        stat = os.stat(os.path.join(where, name))
        stamps.append([name, stat.st_size, stat.st_mtime_ns])
    python = "".join(map(str, sys.version_info[:2]))
    return f"{__version__}-py{python}-{digest([stamps, options_digest(options)])}"


def open_view(
    options: Options, settings: ProjectSettings, exclude: Sequence[str] = (), keep_trees: bool = True,
) -> ProjectView:
    """The project view of a run: its settings, its cache (if any), and the
    index walk leaving out what flake8's exclude patterns leave out
    (``keep_trees``: see ``ProjectView``)."""
    patterns = Patterns(exclude)
    # the index walks absolute paths: each is its own absolute path
    excluded = (lambda path: patterns.matches_filename(path, path)) if exclude else None
    cache = Cache(settings.cache_dir, cache_namespace(options))
    return ProjectView(options, settings.root, settings.src, cache, excluded, settings.lone, keep_trees)


# One project view per process and configuration: the faces check one file at a
# time (flake8 makes a plugin object per file), and the view's summaries serve
# every file of the run.
_VIEWS: Dict[Tuple[Options, ProjectSettings, Tuple[str, ...]], ProjectView] = {}
_VIEWS_LOCK = threading.Lock()
# The texts of modules the editor holds unsaved, by absolute path (``set_open_text``).
_OPEN: Dict[str, bytes] = {}


def project_view(
    options: Options, settings: ProjectSettings, exclude: Sequence[str] = (),
    words: Optional[FrozenSet[str]] = None, keep_trees: bool = True,
) -> ProjectView:
    """This process's view of the project for these settings (``words``: the
    project's words, when the caller has found them already; ``keep_trees``:
    see ``ProjectView``, for the view this call makes)."""
    key = (options, settings, tuple(exclude))
    with _VIEWS_LOCK:
        view = _VIEWS.get(key)
        if view is None:
            view = _VIEWS[key] = open_view(options, settings, exclude, keep_trees)
            if words is not None:
                view.set_words(words)
    return view


def forget_all() -> None:
    """``ProjectView.forget`` for every view of this process."""
    for view in list(_VIEWS.values()):
        view.forget()


def set_open_text(path: str, data: Optional[bytes]) -> None:
    """The editor holds this text of a module (None: no longer, the file on
    disk is its text): every view reads it instead of the file, and makes
    again what it made of the module and the findings that used it."""
    path = os.path.abspath(path)
    if data is None:
        if _OPEN.pop(path, None) is None:
            return
    elif _OPEN.get(path) == data:
        return
    else:
        _OPEN[path] = data
    for view in list(_VIEWS.values()):
        view.changed(path)


def _relative(path: str, base: str) -> Optional[str]:
    """``path`` relative to ``base``; None on another drive (Windows)."""
    try:
        return os.path.relpath(path, base)
    except ValueError:
        return None
