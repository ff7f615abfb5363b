"""Every fixture through the real flake8: exact lines, columns and codes."""
from __future__ import annotations

import sys
from pathlib import Path
from typing import Dict, List, Optional, Tuple

import pytest

from tests.harness import (
    _FORMAT,
    _MIN_VERSION,
    compare,
    extra_args,
    fixture_files,
    flake8,
    lint,
    newer_fixtures,
    parse_output,
)

FILES = fixture_files()
_cache: Dict[Tuple[str, ...], Dict[str, List[Tuple[int, int, str, str]]]] = {}


def _results(path: Path) -> List[Tuple[int, int, str, str]]:
    args = extra_args(path)
    if args not in _cache:
        group = [f for f in FILES if extra_args(f) == args]
        _cache[args] = lint(group, *args)
    return _cache[args].get(str(path), [])


def test_there_are_fixtures() -> None:
    names = {f.name for f in FILES}
    assert len(FILES) >= 8
    assert "broken_service.py" in names and "fixed_service.py" in names


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_fixture(path: Path) -> None:
    compare(path, _results(path))


@pytest.mark.parametrize("path", newer_fixtures() or [None], ids=lambda p: p.name if p else "none")
def test_fixture_for_a_newer_python(path: Optional[Path]) -> None:
    """A fixture of syntax this Python cannot parse is skipped with its reason,
    never silently: run the suite on that Python (docs/reliability.md)."""
    if path is None:
        return  # every fixture parses here: nothing is skipped
    match = _MIN_VERSION.search(path.name)
    assert match is not None
    pytest.skip(f"{path.name} needs Python 3.{match.group(1)} to parse (this is {sys.version.split()[0]})")


def test_fixtures_have_markers_with_columns() -> None:
    """Our own fixtures pin columns; only the shared cases may omit them."""
    from tests.harness import DATA, expected

    for path in sorted(DATA.glob("*.py")):
        assert all(col is not None for _, col, _ in expected(path)), path


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_stdin_gives_the_same_findings(path: Path) -> None:
    proc = flake8(
        ["--isolated", "--select", "TRF", "--format", _FORMAT, *extra_args(path),
         "--stdin-display-name", str(path), "-"],
        stdin=path.read_text(encoding="utf-8"),
    )
    assert proc.returncode in (0, 1), proc.stderr
    assert parse_output(proc.stdout).get(str(path), []) == _results(path)


def test_parallel_jobs_give_the_same_findings() -> None:
    plain = [f for f in FILES if not extra_args(f)]
    parallel = lint(plain, "-j", "2")
    assert parallel == lint(plain, "-j", "1")
    for path in plain:
        compare(path, parallel.get(str(path), []))


def test_case_copies_match_the_shared_cases() -> None:
    """tests/data/cases holds our copies of ../shared/cases, so that a clone of
    this repository tests alone; where the shared folder is beside it, they match."""
    from tests.harness import SHARED_CASES, UPSTREAM_CASES

    if not UPSTREAM_CASES.is_dir():
        pytest.skip("no ../shared/cases beside this clone")
    for upstream in sorted(UPSTREAM_CASES.glob("*.py")):
        ours = SHARED_CASES / upstream.name
        assert ours.read_bytes() == upstream.read_bytes(), ours


def test_trf007_names_the_exit_and_the_local_that_holds_the_task() -> None:
    """The finding is at the spawn and names the exit's line (and, for the tasks
    of earlier passes of a loop, the collection made before it)."""
    path = next(f for f in FILES if f.name == "trf007_lost_on_exit.py")
    texts = {line: text for line, _, code, text in _results(path) if code == "TRF007"}
    assert "held only by local 'tasks' and still pending at the raise on line 16," in texts[17]
    assert "at the break on line 61 (nothing after its loop awaits, cancels or keeps it)" in texts[55]
    assert "held only by local 'running' and still pending at the return on line 87," in texts[89]
    assert "held only by local 'task' and still pending at the return on line 119," in texts[117]
    assert "at the continue on line 270, where the next pass rebinds it (nothing after its loop" in texts[268]
    assert "the frame ends" not in texts[268]
    assert "at the return on line 119, and the frame ends; await or cancel it" in texts[117]
    assert "at the break on line 338 (nothing after its loop awaits" in texts[336]
    assert "at the return on line 400 (the wait on line 395 left it pending after cancel())," in texts[389]
