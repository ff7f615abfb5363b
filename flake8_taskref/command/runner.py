"""Run the analysis over files for the ``flake8-taskref`` command.

Each file is read, parsed and checked the way flake8 does it (the same reading
of encodings and byte-order marks, the same parse, the plugin's analysis, the
same ``# noqa`` handling), optionally fixed in memory, and re-checked after a
fix.  Files run in worker processes when there are several; the workers only
compute.  The main process writes each fix as its result arrives
(``writing.write_in_place``), so that a SIGINT or SIGTERM stops the run between
two whole files; the reports come back sorted by path.

A path that cannot be read is an E902 finding and a file the parser or the
analysis cannot take (a syntax error, an expression nested too deeply, memory)
an E999 finding, as flake8 reports them; an unexpected exception on one file is
that file's ``internal_error`` and the run goes on.
"""
from __future__ import annotations

import ast
import io
import logging
import multiprocessing
import os
import sys
import tokenize
import signal
import traceback
from contextlib import closing
from multiprocessing.connection import Connection, wait
from dataclasses import dataclass, field
from typing import Any, Generator, Iterator, List, Optional, Sequence, Tuple

from flake8 import utils as flake8_utils

from flake8_taskref.analysis.api import lint_file
from flake8_taskref.command.config import Settings
from flake8_taskref.command.diffs import git_name, render_diff
from flake8_taskref.command.noqa import NoqaLines, file_is_skipped
from flake8_taskref.command.writing import (
    NotWritten,
    deferred_signals,
    ignore_signals_in_worker,
    write_in_place,
)

__all__ = ["Finding", "FileReport", "discover", "check_all", "SYNTAX_ERROR", "IO_ERROR"]

SYNTAX_ERROR = "E999"
IO_ERROR = "E902"
DEBUG_VARIABLE = "FLAKE8_TASKREF_DEBUG"  # =1: an internal error shows its traceback
LOG = logging.getLogger(__name__)
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
    """What one file gave: findings (after a fix that was written: those left),
    fixes, and the fixed bytes the main process is to write."""

    path: str
    findings: List[Finding] = field(default_factory=list)
    notes: List[FixNote] = field(default_factory=list)
    diff: bytes = b""
    stdin_source: Optional[bytes] = None  # with --fix on standard input: the (fixed) text
    error: Optional[str] = None  # a problem with this file worth a line (not a finding)
    internal_error: Optional[str] = None  # an unexpected exception: exit 2
    # --fix on a file: what to write (``new``, if ``linted`` is still there) and what is left then
    linted: bytes = b""
    new: Optional[bytes] = None
    findings_after: List[Finding] = field(default_factory=list)

    @property
    def fixed(self) -> int:
        return sum(1 for note in self.notes if note.fixed)


def discover(settings: Settings) -> Tuple[List[str], List[Finding]]:
    """The files to check, as flake8's ``expand_paths`` finds them (``-`` is
    standard input), and an E902 finding for each folder that cannot be listed
    (flake8's walk passes over those silently)."""
    errors: List[OSError] = []
    files = sorted(set(_expand(settings, errors)))
    unreadable = [
        Finding(str(exc.filename), 0, 1, IO_ERROR, f"{type(exc).__name__}: {exc}", 1) for exc in errors
    ]
    return files, sorted(unreadable, key=lambda finding: finding.path)


def _expand(settings: Settings, errors: List[OSError]) -> Iterator[str]:
    """flake8's ``discover_files.expand_paths``, with the walk's errors kept."""
    paths = list(settings.paths) or ["."]
    patterns = list(settings.filename_patterns)

    def excluded(arg: str) -> bool:
        if arg == "-":
            if settings.stdin_display_name == "stdin":
                return False
            arg = settings.stdin_display_name
        return bool(flake8_utils.matches_filename(
            arg, patterns=list(settings.exclude), log_message="%(path)s %(whether)sexcluded", logger=LOG,
        ))

    for path in paths:
        if excluded(path):
            continue
        if not os.path.isdir(path):
            yield path
            continue
        for root, folders, files in os.walk(path, onerror=errors.append):
            folders[:] = [name for name in folders if not excluded(os.path.join(root, name))]
            for name in files:
                joined = os.path.join(root, name)
                if not excluded(joined) and flake8_utils.fnmatch(joined, patterns):
                    yield joined


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


def _char_col(lines: List[str], lineno: int, col_offset: int) -> int:
    """A column in UTF-8 bytes (as ast and flake8 count) in characters."""
    line = lines[lineno - 1] if 0 < lineno <= len(lines) else ""
    return len(line.encode("utf-8")[:col_offset].decode("utf-8", "ignore"))


def _check_text(path: str, lines: List[str], settings: Settings) -> Tuple[List[Finding], List[Site]]:
    """Findings to report, and their sites for the fixer (a file that does not
    parse, or is too deep to analyse, gives its one E999 finding)."""
    text = "".join(lines)
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError) as exc:
        return [_syntax_error(path, exc)], []
    try:
        errors = lint_file(tree, lines, settings.options, path)
    except (RecursionError, MemoryError) as exc:  # too deep to analyse (anything else is a bug)
        return [_syntax_error(path, exc)], []
    codes = settings.codes_for(path)
    noqa = NoqaLines(lines)
    findings: List[Finding] = []
    sites: List[Site] = []
    for error in errors:
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
    """Check (and with --fix/--diff, fix in memory) one file; nothing is written here."""
    shown = settings.stdin_display_name if path == "-" else path
    report = FileReport(shown)
    try:
        data, lines = _read(path)
    except OSError as exc:  # flake8's E902: row 0, column 1, "Type: [Errno n] text: 'path'"
        report.findings = [Finding(shown, 0, 1, IO_ERROR, f"{type(exc).__name__}: {exc}", 1)]
        return report
    if path == "-" and settings.fix:
        report.stdin_source = data  # echoed unchanged unless fixed
    if not settings.disable_noqa and file_is_skipped(lines):
        return report
    report.findings, sites = _check_text(shown, lines, settings)
    if not (settings.fix or settings.diff) or not sites:
        return report
    new = _fix(report, data, sites, settings)
    if new is None:
        return report
    if settings.diff:
        report.diff = render_diff(git_name(shown), data, new)
        return report
    report.findings_after = _check_text(shown, _lines(new), settings)[0]
    if path == "-":
        report.stdin_source = new
        report.findings = report.findings_after
    else:
        report.linted, report.new = data, new  # the main process writes it
    return report


def _fix(report: FileReport, data: bytes, sites: List[Site], settings: Settings) -> Optional[bytes]:
    """The fixed bytes (None when nothing changes or the fix cannot be made);
    the report gets a note for each site."""
    from flake8_taskref.fix import rewrite  # Black is only needed here

    try:
        result = rewrite.fix_source(data, sites, settings.fixing)
    except rewrite.FixError as exc:  # the fix's self-check, or a file too deep: leave the file
        why = str(exc)
    except Exception as exc:  # a bug in the fixer: leave the file, say what happened
        why = f"the fixer failed: {type(exc).__name__}: {exc}".rstrip(": ")
    else:
        why = ""
    if why:
        report.notes = [
            FixNote(report.path, line, col + 1, code, False, why) for line, col, _, _, code in sites
        ]
        return None
    report.notes = [
        FixNote(report.path, o.line, o.col, o.code, o.fixed, o.detail) for o in result.outcomes
    ]
    if not result.changed:
        return None
    try:
        compile("".join(_lines(result.source)), report.path, "exec", dont_inherit=True)
    except (SyntaxError, ValueError, RecursionError, MemoryError) as exc:  # a bug in the fixer
        report.error = f"the fix did not compile ({exc}); file left unchanged"
        report.notes = _not_applied(report.notes, "fix failed")
        return None
    return result.source


def _not_applied(notes: List[FixNote], why: str) -> List[FixNote]:
    return [FixNote(n.path, n.line, n.col, n.code, False, why if n.fixed else n.detail) for n in notes]


def _checked(path: str, settings: Settings) -> FileReport:
    """``check_file``, with an unexpected exception kept as the file's internal error."""
    try:
        return check_file(path, settings)
    except Exception as exc:
        report = FileReport(settings.stdin_display_name if path == "-" else path)
        report.internal_error = _exception(exc)
        return report


def _exception(exc: Exception) -> str:
    """An unexpected exception in one line, or with its traceback if asked."""
    text = f"{type(exc).__name__}: {exc}".rstrip(": ")
    if os.environ.get(DEBUG_VARIABLE) == "1":
        return text + "\n" + traceback.format_exc().rstrip("\n")
    return f"{text} ({DEBUG_VARIABLE}=1 shows the traceback)"


# ----------------------------------------------------------------- writing
def _write(report: FileReport, written: List[str]) -> None:
    """Write the fix of one file in place (in the main process), or say why not."""
    assert report.new is not None
    try:
        with deferred_signals():  # a signal waits until the file is whole and counted
            write_in_place(report.path, report.linted, report.new)
            written.append(report.path)
    except NotWritten as exc:
        report.notes = _not_applied(report.notes, f"not written: {exc}")
    else:
        report.findings = report.findings_after
    report.linted, report.new = b"", None


# ------------------------------------------------------------------ driver
def check_all(paths: Sequence[str], settings: Settings, written: List[str]) -> List[FileReport]:
    """Check every file, in worker processes when it pays, and write each fix as
    it comes (``written`` lists the files written, in order, also when a
    ``writing.Stopped`` ends the run); the reports are sorted by path."""
    jobs = min(settings.jobs, len(paths))
    reports: List[FileReport] = []
    if jobs <= 1 or "-" in paths:
        for path in paths:
            reports.append(_landed(_checked(path, settings), written))
    else:
        with closing(_in_workers(paths, settings, jobs)) as results:  # a Stopped stops the workers
            for report in results:
                reports.append(_landed(report, written))
    reports.sort(key=lambda report: report.path)
    return reports


def _landed(report: FileReport, written: List[str]) -> FileReport:
    if report.new is not None:
        try:
            _write(report, written)
        except Exception as exc:  # a bug: that file's internal error, and the run goes on
            report.internal_error = _exception(exc)
            report.linted, report.new = b"", None
    return report


def _worker(connection: Connection, settings: Settings) -> None:
    """A worker process: paths in, reports out, one at a time, until ``None``."""
    ignore_signals_in_worker()
    while True:
        try:
            path = connection.recv()
        except (EOFError, OSError):  # the main process is gone
            return
        if path is None:
            return
        connection.send(_checked(path, settings))


class _Worker:
    """One worker process and its own pipe: no lock is shared, so a worker that
    dies (a crash, a signal to the whole process group) blocks nothing; the
    file it was on gets an internal error."""

    def __init__(self, context: Any, settings: Settings) -> None:
        self.connection, theirs = context.Pipe()
        self.process = context.Process(target=_worker, args=(theirs, settings), daemon=True)
        self.process.start()
        theirs.close()  # so that the worker's end closes with the worker
        self.path: Optional[str] = None

    def give(self, path: str) -> None:
        self.path = path
        try:
            self.connection.send(path)
        except OSError:  # it died: take() says so
            pass

    def take(self, settings: Settings) -> Tuple[FileReport, bool]:
        """The report of its file, and whether the worker is still alive."""
        path, self.path = self.path, None
        assert path is not None
        try:
            return self.connection.recv(), True
        except (EOFError, OSError):
            self.process.join(5)
            code = self.process.exitcode
            how = f"signal {signal.Signals(-code).name}" if code is not None and code < 0 \
                else f"exit code {code}"
            report = FileReport(settings.stdin_display_name if path == "-" else path)
            report.internal_error = f"the worker process died ({how})"
            return report, False

    def stop(self) -> None:
        if self.process.is_alive():
            self.process.terminate()
        self.process.join(5)
        if self.process.is_alive():  # pragma: no cover - a worker stuck in C code
            self.process.kill()
            self.process.join()
        self.connection.close()


def _in_workers(paths: Sequence[str], settings: Settings, jobs: int) -> Generator[FileReport, None, None]:
    """The reports of ``paths`` as ``jobs`` worker processes finish them."""
    context = multiprocessing.get_context("fork" if sys.platform == "linux" else "spawn")
    todo = list(reversed(paths))
    workers: List[_Worker] = []
    try:
        with deferred_signals():  # no worker starts with the main process's handler
            workers = [_Worker(context, settings) for _ in range(jobs)]
        for worker in workers:
            worker.give(todo.pop())
        while any(worker.path is not None for worker in workers):
            busy = {worker.connection: worker for worker in workers if worker.path is not None}
            for ready in wait(list(busy)):
                worker = busy[ready]
                report, alive = worker.take(settings)
                if not alive:
                    worker.stop()
                    with deferred_signals():
                        workers[workers.index(worker)] = worker = _Worker(context, settings)
                if todo:
                    worker.give(todo.pop())
                yield report
    finally:  # a Stopped included: the workers end at once; they never write
        for worker in workers:
            worker.stop()
