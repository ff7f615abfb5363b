"""Run the installed flake8 on fixture files and read their ``# error:`` markers.

A marker sits on the line flake8 must report: ``# error: TRF001:5`` means code
TRF001 at column 5 (1-based, as flake8 prints it); several are separated by
commas.  ``# error: TRF001`` without a column (the shared real-world cases) is
compared by line and code only.  A fixture's first lines may carry
``# flake8-args: ...`` with extra flake8 arguments (options under test).
"""
from __future__ import annotations

import re
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Dict, Iterable, List, Optional, Sequence, Set, Tuple

TESTS = Path(__file__).resolve().parent
REPO = TESTS.parent
DATA = TESTS / "data"
# Our copies of the real-world cases in ../shared/cases (a clone must test alone).
SHARED_CASES = DATA / "cases"
UPSTREAM_CASES = REPO.parent / "shared" / "cases"

Finding = Tuple[int, Optional[int], str]  # line, column (1-based) or None, code

_MARKER = re.compile(r"#\s*error:\s*(?P<items>TRF\d{3}(?::\d+)?(?:\s*,\s*TRF\d{3}(?::\d+)?)*)")
_ITEM = re.compile(r"(TRF\d{3})(?::(\d+))?")
_ARGS = re.compile(r"^#\s*flake8-args:\s*(?P<args>.*)$")
_FORMAT = "%(path)s|%(row)d|%(col)d|%(code)s|%(text)s"


_MIN_VERSION = re.compile(r"_py3(\d+)_")


def runs_here(path: Path) -> bool:
    """Fixtures named ``..._py311_...`` need that Python version to parse."""
    match = _MIN_VERSION.search(path.name)
    return match is None or sys.version_info[:2] >= (3, int(match.group(1)))


def newer_fixtures() -> List[Path]:
    """Our fixtures that need a newer Python than this one to parse: each is
    reported as a skipped test with its reason (``tests/test_fixtures.py``)."""
    return sorted(p for p in DATA.glob("*.py") if not runs_here(p))


def fixture_files() -> List[Path]:
    """Our fixtures (top level of tests/data) that parse on this Python, and the
    shared real-world cases."""
    files = sorted(p for p in DATA.glob("*.py") if runs_here(p))
    files += sorted((DATA / "factories").glob("*.py"))  # (one module each: a task factory decides a module)
    files += sorted(SHARED_CASES.glob("*.py"))
    return files


def expected(path: Path) -> Set[Finding]:
    found: Set[Finding] = set()
    for number, line in enumerate(path.read_text(encoding="utf-8").split("\n"), 1):
        match = _MARKER.search(line)
        if match is None:
            continue
        for code, col in _ITEM.findall(match.group("items")):
            found.add((number, int(col) if col else None, code))
    return found


def extra_args(path: Path) -> Tuple[str, ...]:
    for line in path.read_text(encoding="utf-8").splitlines()[:3]:
        match = _ARGS.match(line)
        if match:
            return tuple(shlex.split(match.group("args")))
    return ()


def flake8(
    args: Sequence[str], stdin: Optional[str] = None, cwd: Optional[Path] = None
) -> "subprocess.CompletedProcess[str]":
    """The installed flake8 (entry points and all), as a user runs it."""
    return subprocess.run(
        [sys.executable, "-m", "flake8", *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=cwd,
        timeout=300,
    )


def parse_output(stdout: str) -> Dict[str, List[Tuple[int, int, str, str]]]:
    """path -> [(line, col, code, text)] in flake8's order."""
    results: Dict[str, List[Tuple[int, int, str, str]]] = {}
    for line in stdout.splitlines():
        path, row, col, code, text = line.split("|", 4)
        results.setdefault(path, []).append((int(row), int(col), code, text))
    return results


def lint(files: Iterable[Path], *args: str) -> Dict[str, List[Tuple[int, int, str, str]]]:
    """Lint files in one flake8 run with our codes selected and no config files."""
    proc = flake8(["--isolated", "--select", "TRF", "--format", _FORMAT, *args, *map(str, files)])
    assert proc.returncode in (0, 1), proc.stderr
    assert "Traceback" not in proc.stderr, proc.stderr
    return parse_output(proc.stdout)


def compare(path: Path, actual: List[Tuple[int, int, str, str]]) -> None:
    """Assert exactly the marked findings: same lines, columns and codes."""
    want = expected(path)
    with_col = {(line, col, code) for line, col, code in want if col is not None}
    no_col = {(line, code) for line, col, code in want if col is None}
    got_with_col = {(line, col, code) for line, col, code, _ in actual if (line, code) not in no_col}
    got_no_col = {(line, code) for line, col, code, _ in actual if (line, code) in no_col}
    assert len(actual) == len({(line, col, code) for line, col, code, _ in actual}), actual
    missing = [str(item) for item in sorted(with_col - got_with_col)]
    missing += [f"({row}, {code})" for row, code in sorted(no_col - got_no_col)]
    unexpected = sorted(got_with_col - with_col)
    assert not missing and not unexpected, (
        f"{path.name}: missing {missing}, unexpected {unexpected}\n"
        + "\n".join(f"{row}:{col} {code} {text}" for row, col, code, text in actual)
    )


# A project helper that keeps its task (without its add, it drops it), and a
# module that calls it: the server, worker and editor tests change one and watch the other.
KEEPING_HELPER = """\
import asyncio

tasks = set()


def spawn(coro):
    task = asyncio.create_task(coro)
    tasks.add(task)
    task.add_done_callback(tasks.discard)
    return task
"""
USES_HELPER = """\
from pkg.helpers import spawn


async def job() -> None:
    pass


async def main() -> None:
    spawn(job())
"""
