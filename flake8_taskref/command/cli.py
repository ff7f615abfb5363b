"""The ``flake8-taskref`` command: lint without flake8, and fix dropped tasks.

Exit codes: 0 when nothing is left to report; 1 when findings remain (files
that cannot be read, E902, or parsed, E999, included), or a fix was not written
— with ``--diff``, when there is a diff; 2 for usage or configuration errors, a
path named on the command line that does not exist, and an internal error on a
file (one line each; the other files are processed);
128 + the signal's number when SIGINT or SIGTERM stopped the run.
"""
from __future__ import annotations

import argparse
import os
import signal
import sys
from typing import TYPE_CHECKING, Any, List, Optional, Sequence, TextIO

from flake8_taskref import __version__
from flake8_taskref.analysis import options as opts
from flake8_taskref.command.writing import Stopped, stop_on_signals
from flake8_taskref.fix import KEEP_FORMS

if TYPE_CHECKING:
    from flake8_taskref.command.runner import FileReport
    from flake8_taskref.project.config import Settings

# The console script's module: ``flake8-taskref server`` hands over to the
# editor server before the command's own modules (the project view, the
# analysis, the runner) are imported; the command imports them in ``_main``.

__all__ = ["main", "build_parser"]

PROG = "flake8-taskref"


def _terminal_columns() -> int:
    """``shutil.get_terminal_size().columns``: $COLUMNS, else the terminal's, else 80."""
    try:
        columns = int(os.environ["COLUMNS"])
    except (KeyError, ValueError):
        columns = 0
    if columns <= 0:
        try:
            columns = os.get_terminal_size(sys.__stdout__.fileno()).columns  # type: ignore[union-attr]
        except (AttributeError, ValueError, OSError):
            columns = 0
        columns = columns or 80
    return columns


class _HelpFormatter(argparse.HelpFormatter):
    """argparse's formatter, its width found as argparse finds it (the terminal's
    less 2) without importing ``shutil``: argparse makes a formatter for every
    option added, and ``shutil`` (with the compression modules it imports) is a
    few percent of a run on one file."""

    def __init__(self, prog: str, indent_increment: int = 2, max_help_position: int = 24,
                 width: Optional[int] = None, **more: Any) -> None:
        if width is None:
            width = _terminal_columns() - 2
        super().__init__(prog, indent_increment, max_help_position, width, **more)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog=PROG,
        formatter_class=_HelpFormatter,
        usage="%(prog)s [options] [PATH ...]",
        description="Find asyncio tasks that can be garbage-collected while still running, "
        "and fix the dropped ones (TRF001, TRF002) with --fix.",
        epilog="'flake8-taskref server' starts the Language Server for editors "
        "(needs flake8-taskref[server]).",
    )
    parser.add_argument("paths", nargs="*", metavar="PATH",
                        help="files or folders to check (default: the current folder); - for standard input")
    parser.add_argument("--version", action="version", version=f"{PROG} {__version__}")
    fixing = parser.add_argument_group("fixing")
    fixing.add_argument("--fix", action="store_true",
                        help="rewrite TRF001/TRF002 sites in place with the keep-idiom "
                        "(needs flake8-taskref[fix])")
    fixing.add_argument("--diff", action="store_true",
                        help="print the fixes as a unified diff and change no file "
                        "(exit 1 when there is one)")
    fixing.add_argument("--fix-keep", choices=KEEP_FORMS, default=None,
                        help="where a fixed task is kept: a module-level set (module, the default) "
                        "or a set on the instance whose method spawns it (instance)")
    fixing.add_argument("--max-line-length", metavar="N", default=None,
                        help="new lines longer than this are broken as Black would (default: "
                        "flake8's max-line-length, else Ruff's or Black's line-length, else 79)")
    choosing = parser.add_argument_group(
        "codes (flake8's semantics)",
        "on by default: every TRF code but the opt-in TRF006, TRF008 and TRF010, which "
        "--extend-select (or a --select list) turns on by their full codes")
    for name in ("select", "extend-select", "ignore", "extend-ignore"):
        choosing.add_argument(f"--{name}", metavar="CODES", default=None,
                              help=f"comma-separated codes or prefixes, as flake8's --{name}")
    choosing.add_argument("--per-file-ignores", metavar="MAPPING", default=None,
                          help="as flake8's: 'path/*.py:TRF002 other.py:TRF001,TRF003'")
    choosing.add_argument("--disable-noqa", action="store_true", default=None,
                          help="report findings on lines with '# noqa' too")
    files = parser.add_argument_group("files")
    files.add_argument("--exclude", metavar="PATTERNS", default=None,
                       help="comma-separated patterns to skip (default: flake8's)")
    files.add_argument("--extend-exclude", metavar="PATTERNS", default=None,
                       help="patterns to skip besides the default ones")
    files.add_argument("--filename", metavar="PATTERNS", default=None,
                       help="patterns of the files to check in folders (default: *.py)")
    files.add_argument("--stdin-display-name", default="stdin",
                       help="the name of standard input in the output (default: stdin)")
    files.add_argument("--check-syntax", action="store_true", default=None,
                       help="parse every file and report E999 for those that do not parse (by default "
                       "only the files that name a spawner are parsed)")
    files.add_argument("-j", "--jobs", default=None,
                       help="at most this many worker processes: a number or 'auto' (default: auto, "
                       "the CPU count); fewer when the work does not pay for them")
    config = parser.add_argument_group("configuration")
    config.add_argument("--config", metavar="FILE", default=None,
                        help="the flake8 config file to read instead of looking for one")
    config.add_argument("--isolated", action="store_true",
                        help="read no config file (neither flake8's nor pyproject.toml, so no "
                             "Ruff or Black line length for --fix either)")
    for flag, default, help_text in opts.FLAGS:
        config.add_argument(flag, default=None, help=help_text)
    project = parser.add_argument_group("the project's modules")
    project.add_argument("--taskref-src", metavar="ROOTS", default=None,
                         help="comma-separated source roots where the project's modules are looked up "
                              "(default: . and src, besides the folder above each file's top package)")
    project.add_argument("--cache-dir", "--taskref-cache-dir", dest="taskref_cache_dir", metavar="DIR",
                         default=None, help="where the cache is kept (default: .taskref_cache at the "
                                            "project root)")
    project.add_argument("--no-cache", "--taskref-no-cache", dest="taskref_no_cache", action="store_true",
                         default=None, help="read and write no cache")
    output = parser.add_argument_group("output")
    output.add_argument("--format", "--output-format", dest="format", default=None,
                        help="default, pylint, json, sarif, or a flake8 %%-format string "
                             "(--output-format: Ruff's name for it)")
    output.add_argument("--color", choices=("auto", "always", "never"), default="auto",
                        help="colours in the output (flake8's %%(bold)s, %%(red)s, ... %%(reset)s): "
                        "auto, the default, where it goes to a terminal and NO_COLOR is not set")
    output.add_argument("--statistics", action="store_true", default=None,
                        help="count the findings of each code (as flake8)")
    output.add_argument("--count", action="store_true", default=None,
                        help="print the number of findings at the end (as flake8)")
    output.add_argument("--exit-zero", action="store_true", default=None,
                        help="exit 0 even when there are findings")
    # flake8's switch for plugins that are off as a whole: not ours (one plugin, on by
    # default), so a user who reaches for it is told what enables TRF006, TRF008 and TRF010.
    parser.add_argument("--enable-extensions", default=None, help=argparse.SUPPRESS)
    return parser


def main(argv: Optional[Sequence[str]] = None) -> int:
    args = sys.argv[1:] if argv is None else list(argv)
    if args[:1] == ["server"]:  # the editor server, a face of its own (its imports only then)
        from flake8_taskref.server import main as serve

        return serve(args[1:])
    written: List[str] = []  # the files fixed so far, in the order written
    with stop_on_signals():
        try:
            return _main(argv, written)
        except Stopped as stop:
            return _stopped(stop.signum, written)


def _main(argv: Optional[Sequence[str]], written: List[str]) -> int:
    from flake8_taskref.command.output import write
    from flake8_taskref.command.runner import check_all
    from flake8_taskref.project.config import ConfigError, resolve

    parser = build_parser()
    args = parser.parse_args(argv)
    if args.enable_extensions is not None:
        parser.error("--enable-extensions is flake8's switch for plugins that are off as a whole; "
                     "flake8-taskref is on by default: "
                     "enable TRF006, TRF008 or TRF010 with --extend-select TRF006,TRF008,TRF010")
    try:
        settings = resolve(args)
    except ConfigError as exc:  # a value, not the command line's shape: one line, no usage
        parser.exit(2, f"{PROG}: error: {exc}\n")
    for note in settings.notes:  # a run that checks no TRF code says so (docs/command.md)
        write(sys.stderr, f"{PROG}: {note}\n")
    if settings.fix or settings.diff:
        try:
            from flake8_taskref.fix import rewrite  # noqa: F401  (it checks for Black)
        except ImportError as exc:
            parser.exit(2, f"{exc}\n")  # "flake8-taskref: --fix and --diff need Black: ..."
    return _report(check_all(settings, written), settings, args.color)


def _stopped(signum: int, written: List[str]) -> int:
    """After SIGINT/SIGTERM: which files were fixed before it; no traceback."""
    from flake8_taskref.command.output import write

    sys.stdout.flush()
    name = signal.Signals(signum).name
    count = f"{len(written)} file{'s' if len(written) != 1 else ''}"
    write(sys.stderr, f"{PROG}: stopped by {name}; {count} fixed before it, no other file changed\n")
    write(sys.stderr, "".join(f"fixed: {path}\n" for path in written))
    sys.stderr.flush()
    return 128 + signum


def _colored(color: str, stream: TextIO) -> bool:
    """flake8's --color: always, never, or (auto) where the output is a
    terminal; auto also heeds NO_COLOR (no-color.org), as Ruff does."""
    if color != "auto":
        return color == "always"
    try:
        terminal = stream.isatty()
    except (AttributeError, ValueError):
        terminal = False
    return terminal and not os.environ.get("NO_COLOR")


def _report(reports: List[FileReport], settings: Settings, color: str = "never") -> int:
    from flake8_taskref.command.output import MACHINE_FORMATS, render, statistics, write
    from flake8_taskref.command.runner import IO_ERROR, SYNTAX_ERROR, Finding

    findings: List[Finding] = [finding for report in reports for finding in report.findings]
    internal = [report for report in reports if report.internal_error is not None]
    for report in reports:
        if report.error is not None:
            write(sys.stderr, f"{PROG}: {report.path}: {report.error}\n")
    for report in internal:
        write(sys.stderr, f"{PROG}: {report.path}: internal error: {report.internal_error}\n")
    for report in reports:
        if report.skipped is not None:  # not read: a note, no finding
            write(sys.stderr, f"{PROG}: {report.path}: skipped: {report.skipped}, not a regular file\n")
    fixing = settings.fix or settings.diff
    stdin_fixed = [r for r in reports if r.stdin_source is not None]
    out = sys.stderr if stdin_fixed else sys.stdout
    broken = [finding for finding in findings if finding.code in (SYNTAX_ERROR, IO_ERROR)]
    if settings.diff:
        sys.stdout.flush()
        for report in reports:
            sys.stdout.buffer.write(report.diff)  # the file's own bytes: encoding, BOM, line ends
        sys.stdout.buffer.flush()
        # files that cannot be read or parsed cannot be fixed: say so
        write(sys.stderr, render(broken, "default", settings.root))
    else:
        write(out, render(findings, settings.format, settings.root, _colored(color, out)))
        if settings.format not in MACHINE_FORMATS:  # JSON and SARIF stay one document
            if settings.statistics:
                write(out, statistics(findings))
            if settings.print_count:
                write(out, f"{len(findings)}\n")
    for report in stdin_fixed:
        assert report.stdin_source is not None
        sys.stdout.flush()
        sys.stdout.buffer.write(report.stdin_source)
    if fixing:
        _fix_summary(reports, settings)
    # A path named on the command line that does not exist (a misspelled src/) is
    # its E902 in the output and a usage error: exit 2, so that a CI step that
    # lets findings (1) through fails on it (docs/ci.md).
    named = set(settings.paths)
    missing = sorted({f.path for f in findings
                      if f.code == IO_ERROR and f.path in named and not os.path.lexists(f.path)})
    for path in missing:
        write(sys.stderr, f"{PROG}: error: {path}: no such file or folder (named on the command line)\n")
    if internal or missing:
        return 2
    if settings.exit_zero:
        return 0
    if settings.diff:
        return 1 if broken or any(report.diff for report in reports) else 0
    # a fix not written leaves its findings: 1
    return 1 if findings or any(report.error for report in reports) else 0


def _fix_summary(reports: List[FileReport], settings: Settings) -> None:
    from flake8_taskref.command.output import write
    from flake8_taskref.command.runner import IO_ERROR, SYNTAX_ERROR

    verb = "would fix" if settings.diff else "fixed"
    notes = [note for report in reports for note in report.notes]
    for note in notes:
        if note.fixed:
            write(sys.stderr, f"{note.path}:{note.line}:{note.col}: {verb} {note.code} ({note.detail})\n")
        else:
            write(sys.stderr, f"{note.path}:{note.line}:{note.col}: not fixed {note.code}: {note.detail}\n")
    fixed = sum(1 for note in notes if note.fixed)
    files = sum(1 for report in reports if report.fixed)
    # the TRF findings; a file that cannot be read or parsed (E902, E999) has none to fix
    unchecked = sum(1 for report in reports for f in report.findings if f.code in (SYNTAX_ERROR, IO_ERROR))
    total = len(notes) + sum(
        sum(1 for f in report.findings if f.code not in (SYNTAX_ERROR, IO_ERROR))
        for report in reports if not report.notes
    )
    left = total - fixed
    tail = f"; {left} left, see above" if left else ""
    if unchecked:
        tail += (f"; {unchecked} file{'s' if unchecked != 1 else ''} not checked: "
                 "cannot be read or parsed (E902, E999), see above")
    write(sys.stderr, f"{verb} {fixed} of {total} finding{'s' if total != 1 else ''} "
                      f"in {files} file{'s' if files != 1 else ''}{tail}\n")


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
