"""The analysis's two entry points, which every face calls: ``analyse()`` (a
parsed module in, findings out) and ``lint_file()`` (what flake8 and the
``flake8-taskref`` command report for one file: the text shortcut, then the
analysis)."""
from __future__ import annotations

import ast
import gc
from typing import List, Optional, Sequence

from flake8_taskref.analysis.asyncio_api import ScopeVisitor
from flake8_taskref.analysis.messages import SpanError
from flake8_taskref.analysis.options import Options
from flake8_taskref.analysis.rules import check
from flake8_taskref.analysis.shortcut import HotLines, may_spawn, names_a_spawner

__all__ = ["analyse", "lint_file", "may_spawn", "names_a_spawner"]


def analyse(
    tree: ast.AST,
    options: Options,
    lines: Optional[Sequence[str]] = None,
    text: Optional[str] = None,
    *,
    filename: Optional[str] = None,
) -> List[SpanError]:
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
    tree: ast.AST, options: Options, hot: Optional[HotLines], filename: Optional[str] = None
) -> List[SpanError]:
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
    options: Options,
    filename: str = "<unknown>",
) -> List[SpanError]:
    """What the plugin reports for one parsed file, in order: the text shortcut
    first (with the file's lines), then the analysis.  flake8 and the
    ``flake8-taskref`` command both call this; a file nested too deeply to
    analyse raises RecursionError, which each face reports its own way."""
    hot: Optional[HotLines] = None
    if lines is not None:
        text = "".join(lines)
        if not may_spawn(text, options):
            return []
        hot = HotLines(lines, options, text)
    return _analyse(tree, options, hot, filename)
