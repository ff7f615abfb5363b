"""The analysis's entry points, which every face calls: ``analyse()`` (a parsed
module in, findings out), ``lint_file()`` (what flake8 and the
``flake8-taskref`` command report for one file: the text shortcut, then the
analysis) and ``summarise()`` (what other modules of the project need to know of
a module: its ``ModuleSummary``).

Other modules of the project are seen only through a ``view`` (a function from a
module's dotted name to its summary, see ``modules.py``): the analysis reads no
file.  Without a view, a file is analysed alone."""
from __future__ import annotations

import ast
import gc
from typing import TYPE_CHECKING, Callable, Iterable, List, Optional, Sequence, Tuple, Type, TypeVar

from flake8_taskref.analysis.messages import SpanError
from flake8_taskref.analysis.modules import ModuleSummary, Resolver, View
from flake8_taskref.analysis.options import Options
from flake8_taskref.analysis.shortcut import (
    HotLines,
    may_spawn,
    names_a_spawner,
    names_any,
    spawn_tokens,
    words_named,
)

if TYPE_CHECKING:
    from types import ModuleType

    from flake8_taskref.analysis.facts import ModuleFacts

    from flake8_taskref.analysis.asyncio_api import ScopeVisitor
    from flake8_taskref.analysis.rules import ModuleRules

_T = TypeVar("_T")

__all__ = [
    "analyse", "lint_file", "load", "summarise", "summarise_and_check", "may_spawn", "names_a_spawner",
    "names_any", "spawn_tokens", "words_named",
    "with_words",
]


def analyse(
    tree: ast.AST,
    options: Options,
    lines: Optional[Sequence[str]] = None,
    text: Optional[str] = None,
    *,
    filename: Optional[str] = None,
    view: Optional[View] = None,
) -> List[SpanError]:
    """Run the analysis on a parsed module.  With the file's ``lines`` (and, if
    the caller has it, their joined ``text``), functions whose text cannot matter
    are not entered (see ``shortcut.py``); without them, everything is analysed.
    The lines may end in "\\r" or "\\r\\n" (flake8's end in "\\n" only).
    With the ``filename``, relative imports are resolved against the file's
    package (the directories above it holding an ``__init__.py``), and a
    configured helper is recognised where its own module calls it."""
    hot = None if lines is None else _hot_lines(lines, options, text)
    return _analyse(tree, options, hot, filename, view)[0]


def _hot_lines(lines: Sequence[str], options: Options, text: Optional[str] = None) -> HotLines:
    """The text shortcut's hot lines of a file, its lines counted as the parser
    counts them."""
    if text is None:
        text = "".join(lines)
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    return HotLines(lines, options, text)


def _analyse(
    tree: ast.AST, options: Options, hot: Optional[HotLines], filename: Optional[str] = None,
    view: Optional[View] = None, summarise: bool = False, rules_view: Optional[View] = None,
    check: bool = True,
) -> Tuple[List[SpanError], Optional[ModuleSummary]]:
    # The analysis makes many small, short-lived objects that all survive until
    # it ends: the cyclic collector would scan them again and again (quadratic on
    # big files).  It is paused for the analysis and collects them afterwards.
    ScopeVisitor = load()[1]
    enabled = gc.isenabled()
    gc.disable()
    try:
        visitor = ScopeVisitor(options, hot, filename, view)
        # a summary is made from one pass: nothing is put off for it
        visitor.put_off = hot is not None and check and not summarise
        facts = visitor.run(tree)
        try:
            assert facts.resolver is not None
            resolver: Optional[Resolver] = None
            if rules_view is not None:
                resolver = Resolver(rules_view, facts.resolver.own_name)
            partial = hot is not None and not check
            own = _Summaries(facts, options, partial)
            errors = _check(facts, options, resolver, summarise, check, own)
            # functions put off for questions that can only take a finding
            # away (``functions.FunctionsRecorder.put_off``): entered, and the
            # rules run again, only where they found something
            if visitor.later_needed(errors) and visitor.enter_later():
                put_off = visitor.put_off_spawns()

                def silenced(rules: "ModuleRules") -> bool:
                    return any(rules.silenced(spawn, scope) for spawn, scope in put_off)

                # the rules again only if one of those coroutines silences its
                # spawn (the summaries made anew: the facts have grown)
                own = _Summaries(facts, options, partial)
                if _with_rules(facts, options, resolver, silenced, own):
                    errors = _check(facts, options, resolver, summarise, check, own)
            return errors, own.made
        finally:
            visitor.finish()
            facts.release()
    finally:
        if enabled:
            gc.enable()


class _Summaries:
    """A module's own summaries, each made when first asked for: its classes and
    functions as other modules see them (``own``; a module of thousands of
    classes asks nothing) and what other modules need to know of it (``full``,
    from rules that look at no other module: it depends on its text alone)."""

    def __init__(self, facts: "ModuleFacts", options: Options, partial: bool) -> None:
        self.facts = facts
        self.options = options
        self.partial = partial  # made with the text shortcut for other modules: in part
        self._own: Optional[ModuleSummary] = None
        self.made: Optional[ModuleSummary] = None

    def own(self) -> ModuleSummary:
        if self._own is None:
            self._own = load()[0].own(self.facts)
        return self._own

    def full(self) -> ModuleSummary:
        if self.made is None:
            exports, _, ModuleRules = load()
            alone = Resolver(_no_modules, self.own().name)
            alone.set_own(self.own())
            rules = ModuleRules(self.facts, self.options._replace(words=None), alone)
            try:
                rules.prepare()
                self.made = exports.summary(self.facts, rules, partial=self.partial)
            finally:
                rules.summaries.release()
        return self.made


def _check(
    facts: "ModuleFacts", options: Options, resolver: Optional[Resolver], summarise: bool, check: bool,
    own: "_Summaries",
) -> List[SpanError]:
    """The rules on the facts of one pass: the module's summary (if asked, in
    ``own``) and its findings (if asked)."""
    if summarise:
        own.full()
    if not check:
        return []
    # ... and its findings, with the other modules (which may lead back into
    # this one: its whole summary, made when they do)
    return _with_rules(facts, options, resolver, lambda rules: rules.run(), own)


def _with_rules(
    facts: "ModuleFacts", options: Options, resolver: Optional[Resolver],
    use: Callable[["ModuleRules"], _T], own: "_Summaries",
) -> _T:
    """``use`` of the rules of a module, with the other modules (and with this
    one's own summaries, made if they lead back to it)."""
    ModuleRules = load()[2]
    summary = own.made
    for made in (resolver, facts.resolver):
        if made is not None:
            made.set_own(summary or own.own, None if summary else own.full)
    rules = ModuleRules(facts, options, resolver)
    try:
        return use(rules)
    finally:
        rules.summaries.release()
        for made in (resolver, facts.resolver):
            if made is not None:
                made.set_own(None)  # not the functions that make the summaries (a cycle)


def load() -> Tuple["ModuleType", Type["ScopeVisitor"], Type["ModuleRules"]]:
    """The analysis proper (its modules ``exports``, ``asyncio_api``,
    ``rules``), imported when a file is first analysed: a run whose files are
    all answered from the cache (an editor's check on save) never imports it.
    Import it before a test that watches what the analysis touches."""
    from flake8_taskref.analysis import exports
    from flake8_taskref.analysis.asyncio_api import ScopeVisitor
    from flake8_taskref.analysis.rules import ModuleRules

    return exports, ScopeVisitor, ModuleRules


def _no_modules(name: str) -> Optional[ModuleSummary]:
    return None


def with_words(options: Options, words: Iterable[str]) -> Options:
    """``options`` with more words for the text shortcut: the names of the
    project's spawners (functions of other modules that return new tasks), under
    which a file calls them."""
    found = frozenset(words)
    extra = tuple(sorted(set(options.extra_tokens).union(found)))
    return options._replace(extra_tokens=extra, words=found)


def lint_file(
    tree: ast.AST,
    lines: Optional[Sequence[str]],
    options: Options,
    filename: str = "<unknown>",
    view: Optional[View] = None,
    passed: Optional[str] = None,
) -> List[SpanError]:
    """What the plugin reports for one parsed file, in order: the text shortcut
    first (with the file's lines), then the analysis.  flake8 and the
    ``flake8-taskref`` command both call this; a file nested too deeply to
    analyse raises RecursionError, which each face reports its own way.  The
    project's spawner words are in ``options`` (``with_words``).  ``passed``:
    the lines joined, when the caller's ``may_spawn`` with these options let
    them through already (the test is not made twice)."""
    hot: Optional[HotLines] = None
    if lines is not None:
        text = "".join(lines) if passed is None else passed
        if passed is None and not may_spawn(text, options):
            return []
        hot = HotLines(lines, options, text)
    return _analyse(tree, options, hot, filename, view)[0]


def summarise(
    tree: ast.AST, options: Options, filename: str, view: Optional[View] = None,
    lines: Optional[Sequence[str]] = None,
) -> ModuleSummary:
    """The summary of a module.  Without its ``lines``, whole: every function
    entered (a function no spawn word names may still only look at the task it
    is given, which a caller elsewhere needs to know).  With them, in part
    (``ModuleSummary.partial``): only the functions the text shortcut enters
    for a check, with the project's words in ``options``; what the others do is
    in the whole summary, which the reader asks for when it needs it
    (``Resolver``).  A function that returns a new task names a spawner (one
    of asyncio's, or of the project's words), so that the part tells which do."""
    hot = None if lines is None else _hot_lines(lines, options)
    summary = _analyse(tree, options, hot, filename, view, summarise=True, check=False)[1]
    assert summary is not None
    return summary


def summarise_and_check(
    tree: ast.AST, options: Options, filename: str, view: Optional[View] = None,
    rules_view: Optional[View] = None,
) -> Tuple[ModuleSummary, List[SpanError]]:
    """The summary of a module and, from the same pass, its findings: the same
    as ``lint_file``'s for a file the text shortcut lets through (the shortcut
    loses no finding, which the test suite checks).  The summary depends on the
    module's text, and on the modules the pass itself asked the view about (an
    asyncio name under another module's name), none of the others.
    ``rules_view``: the view the findings' rules ask (``view`` by default),
    apart, so that a caller can tell what each used."""
    errors, summary = _analyse(tree, options, None, filename, view, summarise=True, rules_view=rules_view)
    assert summary is not None
    return summary, errors
