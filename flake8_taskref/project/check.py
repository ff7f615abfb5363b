"""One file of the project checked as flake8 checks it, for every face that
reads files itself (the ``flake8-taskref`` command, the editor server): its bytes
read and decoded as flake8 reads them (the same encodings and byte-order marks),
parsed, analysed (``analysis.api.lint_file``) and filtered by the codes the
configuration reports and by ``# noqa`` as flake8 applies them.  A file the
parser or the analysis cannot take (a syntax error, an expression nested too
deeply, memory) is one E999 finding; a file that cannot be read is E902.
"""
from __future__ import annotations

import ast
import os
import sys
from typing import FrozenSet, List, NamedTuple, Optional, Tuple

from flake8_taskref.analysis.api import may_spawn, with_words
from flake8_taskref.project.config import Settings
from flake8_taskref.project.source import (
    NotAFile,
    collector_paused,
    declared_text,
    decode,
    encoding_problem,
    plain_utf8,
    python_refuses,
    read_bytes,
    split_lines,
)
from flake8_taskref.project.noqa import NoqaLines, file_is_skipped
from flake8_taskref.project.view import project_view

__all__ = [
    "Finding", "Site", "SYNTAX_ERROR", "IO_ERROR", "NotAFile", "read_bytes", "plain_utf8", "decode",
    "declared_text", "encoding_problem", "python_refuses", "split_lines", "syntax_error",
    "collector_paused", "char_col", "must_parse", "skips_file", "check_text",
    "DEBUG_VARIABLE", "internal_error",
]

SYNTAX_ERROR = "E999"
IO_ERROR = "E902"
DEBUG_VARIABLE = "FLAKE8_TASKREF_DEBUG"  # =1: an internal error shows its traceback
# Where the fixer finds a finding's node: (line, col_offset, end line,
# end_col_offset, code, why the fixer must leave it or ""), columns in UTF-8
# bytes as ast counts them.
Site = Tuple[int, int, int, int, str, str]


class Finding(NamedTuple):
    """One reported problem: 1-based line and column, as flake8 prints them."""

    path: str
    line: int
    col: int
    code: str
    text: str  # the message without its code
    char_col: int = 0  # 1-based column in characters (``col`` counts UTF-8 bytes, as flake8)
    # where the callee of another module is defined (its file, line): SARIF's related location
    related: Optional[Tuple[str, int]] = None


def syntax_error(path: str, exc: BaseException) -> Finding:
    """flake8's E999: the row and column of a SyntaxError, 1:1 for an exception
    without a place (RecursionError, MemoryError), ``Type: message``."""
    row, col = 1, 0
    if isinstance(exc, SyntaxError):
        # the row and column flake8 prints for its E999
        row = exc.lineno or 1
        col = max(exc.offset or 0, 0)  # an encoding Python refuses has no place: 1:1
        if sys.version_info < (3, 10) and col > 0:
            col -= 1
    message = exc.args[0] if exc.args else str(exc) or "out of memory"
    return Finding(path, row, col + 1, SYNTAX_ERROR, f"{type(exc).__name__}: {message}", col + 1)


def internal_error(exc: BaseException) -> str:
    """An unexpected exception (a bug of ours) in one line, for every face that
    goes on with the other files: with its traceback if the user asks for it."""
    text = f"{type(exc).__name__}: {exc}".rstrip(": ")
    if os.environ.get(DEBUG_VARIABLE) == "1":
        import traceback

        shown = traceback.format_exception(type(exc), exc, exc.__traceback__)
        return text + "\n" + "".join(shown).rstrip("\n")
    return f"{text} ({DEBUG_VARIABLE}=1 shows the traceback)"


def char_col(lines: List[str], lineno: int, col_offset: int) -> int:
    """A column in UTF-8 bytes (as ast and flake8 count) in characters."""
    line = lines[lineno - 1] if 0 < lineno <= len(lines) else ""
    return len(line.encode("utf-8")[:col_offset].decode("utf-8", "ignore"))


class _Unparsable(Exception):
    """The parser refused the file (E999)."""

    def __init__(self, error: BaseException) -> None:
        super().__init__(str(error))
        self.error = error


def must_parse(text: str, settings: Settings) -> bool:
    """Is the decoded text to be parsed and checked?  The text shortcut: only
    when it names a spawner where one can spawn (``analysis.shortcut``), so a
    file without one has no finding, and no E999 either; every file with
    ``check-syntax``."""
    return settings.check_syntax or may_spawn(text, with_words(settings.options, words_of(settings)))


def skips_file(lines: List[str], text: str, settings: Settings) -> bool:
    """Does a ``# flake8: noqa`` line skip the whole file (unless ``disable-noqa``)?"""
    return not settings.disable_noqa and file_is_skipped(lines, text)


def words_of(settings: Settings) -> FrozenSet[str]:
    """The project's spawner words: found by the command's main process before
    its files are checked (``settings.words``), else by this process's view."""
    if settings.words is not None:
        return settings.words
    return project_view(settings.options, settings.project, settings.exclude).words()


def check_text(
    path: str, lines: List[str], settings: Settings, text: Optional[str] = None,
    trees: Optional[List[ast.AST]] = None,
) -> Tuple[List[Finding], List[Site]]:
    """Findings to report, and their sites for the fixer (a file that does not
    parse, or is too deep to analyse, gives its one E999 finding); ``text``:
    the lines joined, if the caller has them; ``trees``: gets the file's tree
    when it is parsed (the fixer then need not parse it again)."""
    if text is None:
        text = "".join(lines)
    source = text

    def parse() -> ast.AST:
        try:
            tree = ast.parse(source)
        except (SyntaxError, ValueError, RecursionError, MemoryError) as exc:
            raise _Unparsable(exc) from exc
        if trees is not None:
            trees.append(tree)
        return tree

    view = project_view(settings.options, settings.project, settings.exclude, settings.words)
    try:
        # with --check-syntax every file is parsed; else only if the view has
        # not checked the same text already
        errors = view.findings(path, parse() if settings.check_syntax else parse, lines)
    except _Unparsable as exc:
        return [syntax_error(path, exc.error)], []
    except (RecursionError, MemoryError) as exc:  # too deep to analyse (anything else is a bug)
        return [syntax_error(path, exc)], []
    codes = settings.codes_for(path)
    noqa = NoqaLines(lines, text)
    findings: List[Finding] = []
    sites: List[Site] = []
    for error in errors:
        if error.code not in codes:
            continue
        if not settings.disable_noqa and noqa.silences(error.lineno, error.code):
            continue
        chars = char_col(lines, error.lineno, error.col_offset)
        related = None if error.related is None else (error.related[2], error.related[1])
        findings.append(
            Finding(path, error.lineno, error.col_offset + 1, error.code, error.message, chars + 1, related)
        )
        sites.append((error.lineno, error.col_offset, error.end_lineno, error.end_col_offset, error.code,
                      error.unfixable))
    return findings, sites
