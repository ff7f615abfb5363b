"""The newest syntax (3.14: template strings, ``except A, B:``; 3.15: lazy
imports, unpacking in comprehensions) through ``--fix``: the fix of each
TRF001/TRF002 site around it passes the fixer's self-check (undone, the fix
gives back the original module), compiles, runs, and a second run changes
nothing.  Skipped, with the reason, on a Python that cannot parse the file
(run the suite on the newest Python: docs/reliability.md)."""
from __future__ import annotations

import runpy
import shutil
import sys
from pathlib import Path

import pytest

from tests.harness import DATA, lint, runs_here
from tests.test_fix import _fix

NEWEST = sorted(DATA.glob("*_py314_*.py")) + sorted(DATA.glob("*_py315_*.py"))


def test_there_are_fixtures_of_the_newest_syntax() -> None:
    assert {path.name for path in NEWEST} >= {"trf001_py314_syntax.py", "trf001_py315_syntax.py"}


@pytest.mark.parametrize("source", NEWEST, ids=lambda p: p.name)
def test_the_fix_of_the_newest_syntax(source: Path, tmp_path: Path) -> None:
    if not runs_here(source):
        pytest.skip(f"{source.name} does not parse on Python {sys.version.split()[0]}")
    target = tmp_path / source.name
    shutil.copy(source, target)
    before = [code for _, _, code, _ in lint([target]).get(str(target), [])]
    fixable = [code for code in before if code in ("TRF001", "TRF002")]
    assert fixable
    proc = _fix(target)
    assert proc.returncode in (0, 1), proc.stderr
    assert "Traceback" not in proc.stderr and "FixError" not in proc.stderr, proc.stderr
    fixed = target.read_bytes()
    assert fixed != source.read_bytes()
    compile(fixed, str(target), "exec")
    runpy.run_path(str(target))  # the module runs (it defines, it does not call)
    left = [code for _, _, code, _ in lint([target]).get(str(target), [])]
    notes = [
        row for row in proc.stderr.splitlines() if ": not fixed TRF001" in row or ": not fixed TRF002" in row
    ]
    assert len([code for code in left if code in ("TRF001", "TRF002")]) == len(notes), proc.stderr
    again = _fix(target)
    assert target.read_bytes() == fixed
    assert again.stderr.splitlines()[-1].startswith("fixed 0 of"), again.stderr
