"""Run the analysis over files for the ``flake8-taskref`` command.

Each file is read and decoded the way flake8 does it (the same reading of
encodings and byte-order marks), then the text shortcut decides: a file that
does not name a spawner where it can spawn (``analysis.shortcut.may_spawn``)
can have no finding, and is neither split into lines nor parsed.  The others are
parsed and checked as flake8 does it (the same parse, the plugin's analysis,
the same ``# noqa`` handling), optionally fixed in memory, and re-checked after
a fix.  With ``--check-syntax`` every file is parsed, for E999.

How many processes: as many as the work pays for, at most ``-j``
(``worker_count``).  Many files: worker processes read, scan and check batches
of them.  Fewer: this process reads and scans them, and checks the files that
pass the shortcut itself when they are few, else in workers.  The workers only
compute (``workers.py``); this process writes each fix as its result arrives
(``writing.write_in_place``), so that a SIGINT or SIGTERM stops the run between
two whole files; the reports come back sorted by path.

A path that cannot be read is an E902 finding and a file the parser or the
analysis cannot take (a syntax error, an expression nested too deeply, memory)
an E999 finding, as flake8 reports them; an unexpected exception on one file is
that file's ``internal_error`` and the run goes on.
"""
from __future__ import annotations

import ast
import gc
from typing import TYPE_CHECKING, List, NamedTuple, Optional, Sequence, Set, Tuple

from flake8_taskref.analysis.api import names_a_spawner, with_words
from flake8_taskref.project.check import (
    IO_ERROR,
    SYNTAX_ERROR,
    Finding,
    NotAFile,
    Site,
    check_text,
    collector_paused,
    declared_text,
    encoding_problem,
    internal_error,
    must_parse,
    plain_utf8,
    python_refuses,
    read_bytes,
    skips_file,
    split_lines,
    syntax_error,
)
from flake8_taskref.project.config import Settings
from flake8_taskref.project.files import Found, expand, outside_link
from flake8_taskref.project.view import project_view
from flake8_taskref.command.writing import NotWritten, deferred_signals, write_in_place

__all__ = ["Finding", "FileReport", "discover", "check_all", "worker_count", "SYNTAX_ERROR", "IO_ERROR"]

# What pays for a worker process (``worker_count``; docs/performance.md has the
# measurements): the files it reads and scans, or the bytes of the files that
# pass the shortcut, which it parses and checks.  A worker costs about 10 ms to
# start and to feed; reading and scanning a file about 35 us, parsing and
# checking a file about 0.15 us a byte.
FILES_PER_WORKER = 1000
HOT_BYTES_PER_WORKER = 300_000
# While the walk goes on, the workers' reports are collected every this many files.
STREAM_POLL = 64

if TYPE_CHECKING:  # pragma: no cover - imported when workers pay (multiprocessing)
    from flake8_taskref.command.workers import Pool as WorkerPool


class FixNote(NamedTuple):
    path: str
    line: int
    col: int
    code: str
    fixed: bool
    detail: str


class FileReport:
    """What one file gave: findings (after a fix that was written: those left),
    fixes, and the fixed bytes the main process is to write."""

    __slots__ = ("path", "findings", "notes", "diff", "stdin_source", "error", "internal_error",
                 "linted", "new", "findings_after", "skipped")

    def __init__(self, path: str, findings: Optional[List[Finding]] = None) -> None:
        self.path = path
        self.findings: List[Finding] = [] if findings is None else findings
        self.notes: List[FixNote] = []
        self.diff = b""
        self.stdin_source: Optional[bytes] = None  # with --fix on standard input: the (fixed) text
        self.error: Optional[str] = None  # a problem with this file worth a line (not a finding)
        self.internal_error: Optional[str] = None  # an unexpected exception: exit 2
        self.skipped: Optional[str] = None  # not a regular file: what it is (a note, not read)
        # --fix on a file: what to write (``new``, if ``linted`` is still there) and what is left then
        self.linted = b""
        self.new: Optional[bytes] = None
        self.findings_after: List[Finding] = []

    @property
    def fixed(self) -> int:
        return sum(1 for note in self.notes if note.fixed)

    @property
    def empty(self) -> bool:
        """Nothing to say: no finding, note, diff, text to echo, error or fix."""
        return not (self.findings or self.notes or self.diff or self.stdin_source is not None
                    or self.error is not None or self.internal_error is not None or self.new is not None
                    or self.skipped is not None)


def discover(settings: Settings) -> Tuple[List[str], List[Finding]]:
    """The files to check, as flake8's ``expand_paths`` finds them (``-`` is
    standard input), and an E902 finding for each folder that cannot be listed
    (flake8's walk passes over those silently)."""
    errors: List[OSError] = []
    files = sorted(set(expand(settings.paths, settings.filename_patterns, settings.exclude,
                              settings.stdin_display_name, errors)))
    return files, _unlistable(errors)


def _unlistable(errors: List[OSError]) -> List[Finding]:
    unreadable = [
        Finding(str(exc.filename), 0, 1, IO_ERROR, f"{type(exc).__name__}: {exc}", 1) for exc in errors
    ]
    return sorted(unreadable, key=lambda finding: finding.path)


class _Source(NamedTuple):
    """A file read and decoded, that the shortcut lets through (or every file
    with --check-syntax): the next step parses it."""

    data: bytes
    text: str


def _scan(path: str, settings: Settings) -> Tuple[FileReport, Optional[_Source]]:
    """Read one file and decide with the text shortcut whether it is to be
    parsed: its report (all there is to say when no source comes with it), and
    its source when it is."""
    shown = settings.stdin_display_name if path == "-" else path
    report = FileReport(shown)
    try:
        data = read_bytes(path)
    except OSError as exc:  # flake8's E902: row 0, column 1, "Type: [Errno n] text: 'path'"
        report.findings = [Finding(shown, 0, 1, IO_ERROR, f"{type(exc).__name__}: {exc}", 1)]
        return report, None
    except NotAFile as exc:  # a named pipe, a device: never read
        report.skipped = str(exc)
        return report, None
    if path == "-" and settings.fix:
        report.stdin_source = data  # echoed unchanged unless fixed
    options = with_words(settings.options, settings.words or ())
    if not settings.check_syntax and plain_utf8(data) and not names_a_spawner(data, options):
        return report, None  # the text cannot name a spawner: not even decoded
    declared = declared_text(data)
    text = data.decode("latin-1") if declared is None else declared  # as flake8 decodes it
    # The decoded text, before its lines are split: may_spawn reads "\r" and
    # "\r\n" line ends as the parser does, and a byte-order mark is no word.
    if not must_parse(text, settings):
        return report, None  # no finding can be in it: not parsed (see docs/command.md)
    refused = None if declared is not None else python_refuses(data)
    if refused is not None:  # an encoding Python refuses: one E999, and nothing to fix
        report.findings = [syntax_error(shown, refused)]
        return report, None
    return report, _Source(data, text)


def check_file(path: str, settings: Settings) -> FileReport:
    """Check (and with --fix/--diff, fix in memory) one file; nothing is written here."""
    report, source = _scan(path, settings)
    if source is None:
        return report
    return _check_source(path, report, source, settings)


def _check_source(path: str, report: FileReport, source: _Source, settings: Settings) -> FileReport:
    """The rest of ``check_file`` for a file the shortcut lets through."""
    with collector_paused():
        return _check_parsed(path, report, source, settings)


def _check_parsed(path: str, report: FileReport, source: _Source, settings: Settings) -> FileReport:
    shown, data = report.path, source.data
    lines = split_lines(data, source.text)
    text = "".join(lines)
    if skips_file(lines, text, settings):
        return report
    trees: List[ast.AST] = []
    report.findings, sites = check_text(shown, lines, settings, text, trees)
    if not (settings.fix or settings.diff) or not sites:
        return report
    new = _fix(report, data, sites, settings, trees[0] if trees else None)
    if new is None:
        return report
    if settings.diff:
        from flake8_taskref.command.diffs import git_name, render_diff  # difflib only for --diff

        report.diff = render_diff(git_name(shown), data, new)
        return report
    report.findings_after = check_text(shown, split_lines(new), settings)[0]
    if path == "-":
        report.stdin_source = new
        report.findings = report.findings_after
    else:
        report.linted, report.new = data, new  # the main process writes it
    return report


def _fix(
    report: FileReport, data: bytes, sites: List[Site], settings: Settings, tree: Optional[ast.AST] = None,
) -> Optional[bytes]:
    """The fixed bytes (None when nothing changes or the fix cannot be made);
    the report gets a note for each site (``tree``: the file's, parsed for its
    check already)."""
    from flake8_taskref.fix.checked import fix_checked  # Black is only needed here

    problem = "" if declared_text(data) is not None else encoding_problem(data)
    if problem:  # Python reads it (the bytes are in a comment); the fixer edits text in its encoding
        why = f"{problem}; a fix is written in the file's encoding: correct its bytes first"
        report.notes = [
            FixNote(report.path, line, col + 1, code, False, why) for line, col, _, _, code, _ in sites
        ]
        return None
    folder = None if report.path == settings.stdin_display_name else outside_link(report.path, settings.paths)
    if folder is not None:  # --fix writes nothing outside the folders it is given
        why = (f"not written: a symbolic link in {folder} to a file outside it "
               "(name the link on the command line to fix it)")
        report.notes = [
            FixNote(report.path, line, col + 1, code, False, why) for line, col, _, _, code, _ in sites
        ]
        return None
    done = fix_checked(data, sites, settings.fixing, report.path, tree)
    report.notes = [FixNote(report.path, o.line, o.col, o.code, o.fixed, o.detail) for o in done.outcomes]
    if done.error is not None:
        report.error = done.error
    return done.source


def _not_applied(notes: List[FixNote], why: str) -> List[FixNote]:
    return [FixNote(n.path, n.line, n.col, n.code, False, why if n.fixed else n.detail) for n in notes]


def _checked(
    path: str, settings: Settings, source: Optional[Tuple[FileReport, _Source]] = None,
) -> FileReport:
    """``check_file`` (the rest of it, for a file scanned already), with an
    unexpected exception kept as the file's internal error."""
    try:
        if source is not None:
            return _check_source(path, source[0], source[1], settings)
        return check_file(path, settings)
    except Exception as exc:
        return _internal_error(path, settings, internal_error(exc))


def _internal_error(path: str, settings: Settings, what: str) -> FileReport:
    report = FileReport(settings.stdin_display_name if path == "-" else path)
    report.internal_error = what
    return report


def check_batch(paths: Sequence[str], settings: Settings) -> List[FileReport]:
    """A worker's batch: the reports that say something (a file the shortcut
    skips, or without findings, gives an empty report, which is not sent back)."""
    reports = (_checked(path, settings) for path in paths)
    return [report for report in reports if not report.empty]


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
def worker_count(jobs: int, files: int, hot_bytes: Optional[int] = None) -> int:
    """How many worker processes the work pays for, at most ``jobs``; below two,
    none (the run stays in this process).  While the folders are walked, from
    the number of files found: each worker must get ``FILES_PER_WORKER`` files
    to read and scan.  Once this process has scanned fewer files, from
    ``hot_bytes``, the size of those the shortcut lets through: each worker must
    get ``HOT_BYTES_PER_WORKER`` of them to parse and check."""
    if hot_bytes is None:
        count = files // FILES_PER_WORKER
    else:
        count = min(files, hot_bytes // HOT_BYTES_PER_WORKER)
    count = min(jobs, count)
    return count if count >= 2 else 0


def check_all(settings: Settings, written: List[str]) -> List[FileReport]:
    """Find the files to check, as flake8 does (``discover``), check them, in
    worker processes when it pays (``worker_count``), and write each fix as it
    comes (``written`` lists the files written, in order, also when a
    ``writing.Stopped`` ends the run).  The reports that say something, sorted
    by path; a folder that cannot be listed is an E902 report.

    Many files: workers start as soon as the walk has found enough for two, and
    read, scan and check them while the walk goes on (and more workers start as
    it finds more).  Fewer files: this process reads and scans them, then
    checks those the shortcut lets through, in workers if they are big enough.

    First the project's index gives the names of the project's spawners (this
    process, once; cached): the text shortcut looks for them too, and the
    workers get them with the settings."""
    view = project_view(settings.options, settings.project, settings.exclude, settings.words)
    # What the index keeps (summaries, the trees of the files it parsed for
    # their checks) lives until the run ends or a check takes it: the cyclic
    # collector need not walk it again at each full collection (this process
    # is the command's own; the analysis leaves no cycles to collect).  It is
    # frozen before the collector runs again: else the first allocation after
    # the index set off a collection that walked all of it once (245 ms of
    # 1.4 s on sglang, in this process before any worker starts).
    with collector_paused():
        if settings.words is None:  # (the index's workers hold the files they parse, for their checks)
            settings = settings._replace(words=view.words(settings.jobs, hold=True))
        gc.freeze()
    holders = view.holders()
    # a file the index has seen, unchanged, that names no spawner: not even read
    skip_cold = not settings.check_syntax
    found = Found()  # the folders that cannot be listed, the files skipped
    stdin = "-" in settings.paths  # read once, in this process
    seen: Set[str] = set()
    checked = 0  # the files found that are to be read (not those the index knows can have no finding)
    files: List[str] = []  # found before the workers start (all of them, if they never do)
    reports: List[FileReport] = []
    pool: Optional["WorkerPool"] = None
    try:
        for path in expand(settings.paths, settings.filename_patterns, settings.exclude,
                           settings.stdin_display_name, found):
            if path in seen:
                continue
            seen.add(path)
            if skip_cold and path != "-" and view.cold(path):
                continue
            if holders is not None and path != "-" and holders.take(path):
                continue  # checked by the worker of the index that parsed it
            checked += 1
            if pool is None:
                files.append(path)
                if stdin or not worker_count(settings.jobs, len(files)):
                    continue
                from flake8_taskref.command.workers import Pool  # multiprocessing only when it pays

                pool = Pool(settings)
                pool.add(files)
                files = []
            else:
                pool.add((path,))
            pool.grow(worker_count(settings.jobs, checked))
            if len(seen) % STREAM_POLL == 0:
                reports += [_landed(report, written) for report in pool.reports(block=False)]
        if holders is not None:
            holders.start(check_batch, settings)
        if pool is None:
            _check_here(sorted(files), settings, stdin, reports, written)
        else:
            pool.close()
            while pool.busy():
                reports += [_landed(report, written) for report in pool.reports(block=True)]
        for taken, lost in holders.collect() if holders is not None else ():
            reports += [_landed(report, written) for report in taken]
            if lost:  # the holder died: its files checked in a worker (one that dies says on which)
                _check_in_workers(lost, settings, 1, reports, written)
    finally:  # a Stopped included: the workers end at once; they never write
        if pool is not None:
            pool.stop()
        if holders is not None:
            holders.stop()
    reports = [report for report in reports if not report.empty]  # as the workers send them
    reports += [FileReport(finding.path, [finding]) for finding in _unlistable(found.errors)]
    reports += [_skipped(path, why) for path, why in found.skipped]
    reports.sort(key=lambda report: report.path)
    return reports


def _check_here(
    paths: Sequence[str], settings: Settings, stdin: bool, reports: List[FileReport], written: List[str],
) -> None:
    """Read and scan ``paths`` in this process, then check those the shortcut
    lets through here, or in workers if they are big enough."""
    hot: List[Tuple[str, Tuple[FileReport, _Source]]] = []
    for path in paths:
        try:
            report, source = _scan(path, settings)
        except Exception as exc:
            report, source = _internal_error(path, settings, internal_error(exc)), None
        if source is None:
            reports.append(_landed(report, written))
        else:
            hot.append((path, (report, source)))
    hot_bytes = sum(len(source.data) for _, (_, source) in hot)
    jobs = 0 if stdin else worker_count(settings.jobs, len(hot), hot_bytes)
    if not jobs:
        for path, scanned in hot:
            reports.append(_landed(_checked(path, settings, scanned), written))
        return
    _check_in_workers([path for path, _ in hot], settings, jobs, reports, written)


def _check_in_workers(
    paths: Sequence[str], settings: Settings, jobs: int, reports: List[FileReport], written: List[str],
) -> None:
    from flake8_taskref.command.workers import Pool  # multiprocessing only when it pays

    pool = Pool(settings)
    try:
        pool.add(paths)
        pool.close()
        pool.grow(jobs)
        while pool.busy():
            reports += [_landed(report, written) for report in pool.reports(block=True)]
    finally:
        pool.stop()


def _skipped(path: str, why: str) -> FileReport:
    report = FileReport(path)
    report.skipped = why
    return report


def _landed(report: FileReport, written: List[str]) -> FileReport:
    if report.new is not None:
        try:
            _write(report, written)
        except Exception as exc:  # a bug: that file's internal error, and the run goes on
            report.internal_error = internal_error(exc)
            report.linted, report.new = b"", None
    return report
