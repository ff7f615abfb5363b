"""Run the analysis over files for the ``flake8-taskref`` command.

Each file is read, parsed and checked the way flake8 does it (the same reading
of encodings and byte-order marks, the same parse, ``lint_file`` as the plugin
runs it, the same ``# noqa`` handling), optionally fixed, and re-checked after a
fix.  Files run in worker processes when there are several; results come back
in a stable order (sorted by path).
"""
from __future__ import annotations

import ast
import difflib
import io
import multiprocessing
import os
import sys
import tempfile
import tokenize
from dataclasses import dataclass, field
from typing import List, Optional, Sequence, Tuple

from flake8.discover_files import expand_paths

from flake8_taskref.command.config import Settings
from flake8_taskref.command.noqa import NoqaLines, file_is_skipped
from flake8_taskref.analysis.api import lint_file

__all__ = ["Finding", "FileReport", "discover", "check_all", "SYNTAX_ERROR"]

SYNTAX_ERROR = "E999"
# Where the fixer finds a finding's node: (line, col_offset, end line,
# end_col_offset, code), columns in UTF-8 bytes as ast counts them.
Site = Tuple[int, int, int, int, str]


@dataclass(frozen=True)
class Finding:
    """One reported problem: 1-based line and column, as flake8 prints them."""

    path: str
    line: int
    col: int
    code: str
    text: str  # the message without its code
    char_col: int = 0  # 1-based column in characters (``col`` counts UTF-8 bytes, as flake8)


@dataclass(frozen=True)
class FixNote:
    path: str
    line: int
    col: int
    code: str
    fixed: bool
    detail: str


@dataclass
class FileReport:
    """What one file gave: findings (after a fix: those left), fixes, new text."""

    path: str
    findings: List[Finding] = field(default_factory=list)
    notes: List[FixNote] = field(default_factory=list)
    diff: str = ""
    stdin_source: Optional[bytes] = None  # with --fix on standard input: the (fixed) text
    error: Optional[str] = None  # an internal problem with this file (not a finding)

    @property
    def fixed(self) -> int:
        return sum(1 for note in self.notes if note.fixed)


def discover(settings: Settings) -> List[str]:
    """The files to check, as flake8 finds them (``-`` is standard input)."""
    return sorted(
        set(
            expand_paths(
                paths=list(settings.paths),
                stdin_display_name=settings.stdin_display_name,
                filename_patterns=list(settings.filename_patterns),
                exclude=list(settings.exclude),
            )
        )
    )


# ----------------------------------------------------------------- reading
def _read(path: str) -> Tuple[bytes, List[str]]:
    """The file's bytes (``-``: standard input) and its lines as flake8 reads them."""
    if path == "-":
        data = sys.stdin.buffer.read()
    else:
        with open(path, "rb") as handle:
            data = handle.read()
    return data, _lines(data)


def _decode(data: bytes) -> str:
    """The text as flake8 decodes a file: the encoding of its coding cookie (UTF-8
    by default), latin-1 as the last resort."""
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
        return data.decode(encoding)
    except (SyntaxError, UnicodeError, LookupError):
        return data.decode("latin-1")


def _lines(data: bytes) -> List[str]:
    """Text lines as flake8 reads a file: universal newlines, no byte-order mark."""
    lines = io.StringIO(_decode(data), newline=None).readlines()
    if lines and lines[0][:1] == "\ufeff":
        lines[0] = lines[0][1:]
    return lines


def _syntax_error(path: str, exc: BaseException) -> Finding:
    row, col = 1, 0
    if isinstance(exc, SyntaxError):
        # the row and column flake8 prints for its E999
        row = exc.lineno or 1
        col = exc.offset or 0
        if sys.version_info < (3, 10) and col > 0:
            col -= 1
    message = exc.args[0] if exc.args else str(exc)
    return Finding(path, row, col + 1, SYNTAX_ERROR, f"{type(exc).__name__}: {message}", col + 1)


def _char_col(lines: List[str], lineno: int, col_offset: int) -> int:
    """A column in UTF-8 bytes (as ast and flake8 count) in characters (as LibCST does)."""
    line = lines[lineno - 1] if 0 < lineno <= len(lines) else ""
    return len(line.encode("utf-8")[:col_offset].decode("utf-8", "ignore"))


def _check_text(path: str, lines: List[str], settings: Settings) -> Tuple[List[Finding], List[Site]]:
    """Findings to report, and their sites for the fixer."""
    text = "".join(lines)
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError) as exc:
        return [_syntax_error(path, exc)], []
    codes = settings.codes_for(path)
    noqa = NoqaLines(lines)
    findings: List[Finding] = []
    sites: List[Site] = []
    for error in lint_file(tree, lines, settings.options, path):
        if error.code not in codes:
            continue
        if not settings.disable_noqa and noqa.silences(error.lineno, error.code):
            continue
        chars = _char_col(lines, error.lineno, error.col_offset)
        findings.append(
            Finding(path, error.lineno, error.col_offset + 1, error.code, error.message, chars + 1)
        )
        sites.append((error.lineno, error.col_offset, error.end_lineno, error.end_col_offset, error.code))
    return findings, sites


def check_file(path: str, settings: Settings) -> FileReport:
    """Check (and with --fix/--diff, fix) one file."""
    shown = settings.stdin_display_name if path == "-" else path
    report = FileReport(shown)
    try:
        data, lines = _read(path)
    except OSError as exc:
        report.error = f"cannot read: {exc.strerror or exc}"
        return report
    if path == "-" and settings.fix:
        report.stdin_source = data  # echoed unchanged unless fixed
    if not settings.disable_noqa and file_is_skipped(lines):
        return report
    report.findings, sites = _check_text(shown, lines, settings)
    if not (settings.fix or settings.diff) or not sites:
        return report
    from flake8_taskref.fix import rewrite  # LibCST is only needed here

    try:
        result = rewrite.fix_source(data, sites, settings.fixing)
    except Exception as exc:  # LibCST cannot parse what ast can (rare): leave the file
        report.error = f"not fixed: {type(exc).__name__}: {exc}"
        return report
    report.notes = [
        FixNote(shown, o.line, o.col, o.code, o.fixed, o.detail) for o in result.outcomes
    ]
    if not result.changed:
        return report
    new_lines = _lines(result.source)
    try:
        compile("".join(new_lines), shown, "exec", dont_inherit=True)
    except (SyntaxError, ValueError) as exc:  # never expected: a bug in the fixer
        report.error = f"the fix did not compile ({exc}); file left unchanged"
        report.notes = _not_applied(report.notes, "fix failed")
        return report
    # the diff keeps the file's own line ends, so that git apply and patch take it
    name = shown[2:] if shown.startswith("./") else shown
    report.diff = "".join(
        difflib.unified_diff(
            _raw_lines(data), _raw_lines(result.source), fromfile=f"a/{name}", tofile=f"b/{name}"
        )
    )
    if settings.fix and not settings.diff:
        if path == "-":
            report.stdin_source = result.source
        else:
            try:
                _replace(path, result.source)
            except OSError as exc:
                report.error = f"cannot write the fix: {exc.strerror or exc}"
                report.notes = _not_applied(report.notes, "not written")
                return report
    report.findings, _ = _check_text(shown, new_lines, settings)
    return report


def _not_applied(notes: List[FixNote], why: str) -> List[FixNote]:
    return [FixNote(n.path, n.line, n.col, n.code, False, why) for n in notes]


def _raw_lines(data: bytes) -> List[str]:
    """Lines with their own line ends (for diffs)."""
    return io.StringIO(_decode(data), newline="").readlines()


def _replace(path: str, data: bytes) -> None:
    """Write the fixed file whole or not at all (a temporary file beside it,
    with the old file's permissions, renamed over it)."""
    folder = os.path.dirname(os.path.abspath(path))
    mode = os.stat(path).st_mode
    handle, temporary = tempfile.mkstemp(prefix=".taskref-", dir=folder)
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(data)
        os.chmod(temporary, mode & 0o7777)
        os.replace(temporary, os.path.realpath(path))
    except BaseException:
        if os.path.exists(temporary):
            os.unlink(temporary)
        raise


# ------------------------------------------------------------------ driver
_SETTINGS: Optional[Settings] = None


def _init_worker(settings: Settings) -> None:
    global _SETTINGS
    _SETTINGS = settings


def _work(path: str) -> FileReport:
    assert _SETTINGS is not None
    return check_file(path, _SETTINGS)


def check_all(paths: Sequence[str], settings: Settings) -> List[FileReport]:
    """Check every file, in worker processes when it pays; sorted by path."""
    jobs = min(settings.jobs, len(paths))
    if jobs <= 1 or "-" in paths:
        reports = [check_file(path, settings) for path in paths]
    else:
        context = multiprocessing.get_context("fork" if sys.platform == "linux" else "spawn")
        with context.Pool(jobs, initializer=_init_worker, initargs=(settings,)) as pool:
            reports = pool.map(_work, paths, chunksize=max(1, len(paths) // (jobs * 8)))
    reports.sort(key=lambda report: report.path)
    return reports
