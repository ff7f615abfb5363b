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
import gc
import io
import os
import sys
from contextlib import contextmanager
from typing import Iterator, List, NamedTuple, Optional, Tuple

from flake8_taskref.analysis.api import lint_file, may_spawn
from flake8_taskref.project.config import Settings
from flake8_taskref.project.noqa import NoqaLines, file_is_skipped

__all__ = [
    "Finding", "Site", "SYNTAX_ERROR", "IO_ERROR", "read_bytes", "plain_utf8", "decode", "split_lines",
    "syntax_error", "collector_paused", "char_col", "must_parse", "skips_file", "check_text",
]

SYNTAX_ERROR = "E999"
IO_ERROR = "E902"
# Where the fixer finds a finding's node: (line, col_offset, end line,
# end_col_offset, code), columns in UTF-8 bytes as ast counts them.
Site = Tuple[int, int, int, int, str]


class Finding(NamedTuple):
    """One reported problem: 1-based line and column, as flake8 prints them."""

    path: str
    line: int
    col: int
    code: str
    text: str  # the message without its code
    char_col: int = 0  # 1-based column in characters (``col`` counts UTF-8 bytes, as flake8)


def read_bytes(path: str) -> bytes:
    """The file's bytes (``-``: standard input).  ``os.read`` of the size
    ``fstat`` gives costs a third less than ``open().read()``, which builds a
    buffered file object around the same calls; should it fail, ``open()`` says
    why in flake8's words (E902: the error names the file)."""
    if path == "-":
        return sys.stdin.buffer.read()
    try:
        fd = os.open(path, os.O_RDONLY)
        try:
            data = os.read(fd, os.fstat(fd).st_size + 1)
            if data:  # whatever is left, if the file grew or fstat gave no size (a pipe)
                chunks = [data]
                while True:
                    more = os.read(fd, 1 << 20)
                    if not more:
                        break
                    chunks.append(more)
                data = b"".join(chunks) if len(chunks) > 1 else data
            return data
        finally:
            os.close(fd)
    except OSError:
        pass
    with open(path, "rb") as handle:
        return handle.read()


def plain_utf8(data: bytes) -> bool:
    """Is the file UTF-8 without a byte-order mark or a coding cookie, so that
    ``tokenize.detect_encoding`` would say "utf-8" (or fail on bytes that are
    not UTF-8, which the decoding fails on too)?  Its cookie must be in one of
    the first two lines and spell "coding"."""
    if data[:3] == b"\xef\xbb\xbf":
        return False
    first = data.find(b"\n")
    end = -1 if first < 0 else data.find(b"\n", first + 1)
    return b"coding" not in (data if end < 0 else data[:end])


def decode(data: bytes) -> str:
    """The text as flake8 decodes a file: the encoding of its coding cookie (UTF-8
    by default), latin-1 as the last resort."""
    try:
        if plain_utf8(data):
            return data.decode("utf-8")
        import tokenize  # only for a byte-order mark or a coding cookie

        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
        return data.decode(encoding)
    except (SyntaxError, UnicodeError, LookupError):
        return data.decode("latin-1")


def split_lines(data: bytes, text: Optional[str] = None) -> List[str]:
    """Text lines as flake8 reads a file: universal newlines, no byte-order mark
    (``text``: the bytes decoded already)."""
    lines = io.StringIO(decode(data) if text is None else text, newline=None).readlines()
    if lines and lines[0][:1] == "\ufeff":
        lines[0] = lines[0][1:]
    return lines


def syntax_error(path: str, exc: BaseException) -> Finding:
    """flake8's E999: the row and column of a SyntaxError, 1:1 for an exception
    without a place (RecursionError, MemoryError), ``Type: message``."""
    row, col = 1, 0
    if isinstance(exc, SyntaxError):
        # the row and column flake8 prints for its E999
        row = exc.lineno or 1
        col = exc.offset or 0
        if sys.version_info < (3, 10) and col > 0:
            col -= 1
    message = exc.args[0] if exc.args else str(exc) or "out of memory"
    return Finding(path, row, col + 1, SYNTAX_ERROR, f"{type(exc).__name__}: {message}", col + 1)


@contextmanager
def collector_paused() -> Iterator[None]:
    """The cyclic garbage collector paused while one file is parsed, checked and
    fixed.  Its tree and the analysis's records are many objects without
    cycles, freed by their reference counts when the file is done; a collection
    while they live walks all of them, again at each generation (measured on
    the corpus: a quarter of the time of parsing and checking its files).
    Whatever cycles the file leaves are collected after it."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def char_col(lines: List[str], lineno: int, col_offset: int) -> int:
    """A column in UTF-8 bytes (as ast and flake8 count) in characters."""
    line = lines[lineno - 1] if 0 < lineno <= len(lines) else ""
    return len(line.encode("utf-8")[:col_offset].decode("utf-8", "ignore"))


def must_parse(text: str, settings: Settings) -> bool:
    """Is the decoded text to be parsed and checked?  The text shortcut: only
    when it names a spawner where one can spawn (``analysis.shortcut``), so a
    file without one has no finding, and no E999 either; every file with
    ``check-syntax``."""
    return settings.check_syntax or may_spawn(text, settings.options)


def skips_file(lines: List[str], text: str, settings: Settings) -> bool:
    """Does a ``# flake8: noqa`` line skip the whole file (unless ``disable-noqa``)?"""
    return not settings.disable_noqa and file_is_skipped(lines, text)


def check_text(
    path: str, lines: List[str], settings: Settings, text: Optional[str] = None,
) -> Tuple[List[Finding], List[Site]]:
    """Findings to report, and their sites for the fixer (a file that does not
    parse, or is too deep to analyse, gives its one E999 finding); ``text``:
    the lines joined, if the caller has them."""
    if text is None:
        text = "".join(lines)
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError) as exc:
        return [syntax_error(path, exc)], []
    try:
        errors = lint_file(tree, lines, settings.options, path)
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
        findings.append(
            Finding(path, error.lineno, error.col_offset + 1, error.code, error.message, chars + 1)
        )
        sites.append((error.lineno, error.col_offset, error.end_lineno, error.end_col_offset, error.code))
    return findings, sites
