"""The flake8 entry point: options in, one pass of the scope analysis, findings out."""
from __future__ import annotations

import argparse
import ast
import gc
import sys
from typing import Iterable, List, Optional, Sequence

from flake8.options.manager import OptionManager
from flake8_plugin_utils import Error, Plugin, Visitor

from flake8_taskref import __version__
from flake8_taskref import options as opts
from flake8_taskref.messages import OFF_BY_DEFAULT
from flake8_taskref.rules import check
from flake8_taskref.scopes import ScopeVisitor
from flake8_taskref.shortcut import HotLines, may_spawn

__all__ = ["TaskRefPlugin", "analyse", "lint_file", "may_spawn"]


def analyse(
    tree: ast.AST,
    options: opts.Options,
    lines: Optional[Sequence[str]] = None,
    text: Optional[str] = None,
    *,
    filename: Optional[str] = None,
) -> List[Error]:
    """Run the analysis on a parsed module.  With the file's ``lines`` (and, if
    the caller has it, their joined ``text``), functions whose text cannot matter
    are not entered (see ``shortcut.py``); without them, everything is analysed.
    The lines may end in "\\r" or "\\r\\n" (flake8's end in "\\n" only).
    With the ``filename``, relative imports are resolved against the file's
    package (the directories above it holding an ``__init__.py``), and a
    configured helper is recognised where its own module calls it."""
    if lines is None:
        return _analyse(tree, options, None, filename)
    if text is None:
        text = "".join(lines)
    if "\r" in text:  # count the lines as the parser does
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    return _analyse(tree, options, HotLines(lines, options, text), filename)


def _analyse(
    tree: ast.AST, options: opts.Options, hot: Optional[HotLines], filename: Optional[str] = None
) -> List[Error]:
    # The analysis makes many small, short-lived objects that all survive until
    # it ends: the cyclic collector would scan them again and again (quadratic on
    # big files).  It is paused for the analysis and collects them afterwards.
    enabled = gc.isenabled()
    gc.disable()
    try:
        facts = ScopeVisitor(options, hot, filename).run(tree)
        try:
            return check(facts, options)
        finally:
            facts.release()
    finally:
        if enabled:
            gc.enable()


def lint_file(
    tree: ast.AST,
    lines: Optional[Sequence[str]],
    options: opts.Options,
    filename: str = "<unknown>",
) -> List[Error]:
    """What the plugin reports for one parsed file, in order: the text shortcut
    first (with the file's lines), then the analysis.  A file nested too deeply
    to analyse is skipped with one message on stderr, so that a run goes on.
    flake8 and the ``flake8-taskref`` command both call this."""
    visitor = TaskRefVisitor(options)
    visitor.filename = filename
    if lines is not None:
        text = "".join(lines)
        if not may_spawn(text, options):
            return []
        visitor.hot = HotLines(lines, options, text)
    try:
        visitor.visit(tree)
    except RecursionError:
        # A pathologically deep expression: skip this file, say so once.
        sys.stderr.write(f"flake8-taskref: skipped {filename}: nested too deeply to analyse\n")
        return []
    return visitor.errors


class TaskRefVisitor(Visitor[opts.Options]):
    """Adapter for flake8-plugin-utils: one visit of the module node runs the
    whole analysis (the scope visitor walks the tree once by itself)."""

    hot: Optional[HotLines] = None
    filename: Optional[str] = None

    def visit(self, node: ast.AST) -> None:
        self.errors.extend(_analyse(node, self.config, self.hot, self.filename))


class TaskRefPlugin(Plugin[opts.Options]):
    """flake8-taskref: asyncio tasks that can be garbage-collected while running."""

    name = "flake8-taskref"
    version = __version__
    visitors = [TaskRefVisitor]
    config: opts.Options = opts.Options.build()

    def __init__(
        self, tree: ast.AST, lines: Optional[Sequence[str]] = None, filename: str = "<unknown>"
    ) -> None:
        super().__init__(tree)
        self._lines = lines
        self._filename = filename

    def run(self) -> Iterable[tuple]:  # type: ignore[type-arg]
        for error in lint_file(self._tree, self._lines, self.config, self._filename):
            yield self._error(error)

    @classmethod
    def add_options(cls, option_manager: OptionManager) -> None:
        opts.register(option_manager)
        option_manager.extend_default_ignore(list(OFF_BY_DEFAULT))

    @classmethod
    def parse_options_to_config(
        cls, option_manager: OptionManager, options: argparse.Namespace, args: List[str]
    ) -> opts.Options:
        try:
            return opts.from_namespace(options)
        except opts.OptionValueError as exc:
            option_manager.parser.error(f"flake8-taskref: {exc}")
            raise  # pragma: no cover - parser.error exits
