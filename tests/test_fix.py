"""``flake8-taskref --fix`` and ``--diff``, through the installed console script.

Golden files, as in flake8-async's autofix tests: ``tests/data/fix/NAME.py`` is
fixed in a copy and must equal ``NAME.fixed.py`` byte for byte; the result must
compile, lint clean of TRF001/TRF002 through the real flake8, and a second
``--fix`` must change nothing.  Regenerate a golden file (then read its diff!)
with ``TASKREF_UPDATE_GOLDEN=1 python -m pytest tests/test_fix.py``.
"""
from __future__ import annotations

import difflib
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import List, Set, Tuple

import pytest

from tests.harness import DATA, SHARED_CASES, expected, lint

FIX = DATA / "fix"
INPUTS = sorted(p for p in FIX.glob("*.py") if not p.name.endswith(".fixed.py"))
GOLDEN = [p for p in INPUTS if p.with_name(p.stem + ".fixed.py").exists()]
UPDATE = os.environ.get("TASKREF_UPDATE_GOLDEN") == "1"


def command(*args: str, cwd: Path, stdin: str = "") -> "subprocess.CompletedProcess[str]":
    """The installed console script, as a user runs it."""
    script = shutil.which("flake8-taskref", path=os.path.dirname(sys.executable))
    assert script is not None, "flake8-taskref is not installed beside this python"
    return subprocess.run([script, *args], cwd=cwd, capture_output=True, text=True,
                          input=stdin, timeout=300)


def _fix(path: Path, *extra: str) -> "subprocess.CompletedProcess[str]":
    return command("--isolated", "--select", "TRF", "--fix", *extra, path.name, cwd=path.parent)


def _codes(path: Path) -> List[Tuple[int, str]]:
    return [(line, code) for line, _, code, _ in lint([path]).get(str(path), [])]


def test_there_are_golden_files() -> None:
    assert len(GOLDEN) >= 7
    for path in GOLDEN:
        assert path.read_bytes() != path.with_name(path.stem + ".fixed.py").read_bytes(), path


@pytest.mark.parametrize("source", GOLDEN, ids=lambda p: p.stem)
def test_fix_matches_golden_file(source: Path, tmp_path: Path) -> None:
    golden = source.with_name(source.stem + ".fixed.py")
    target = tmp_path / source.name
    shutil.copy(source, target)
    before = _codes(target)
    assert any(code in ("TRF001", "TRF002") for _, code in before)
    proc = _fix(target)
    assert proc.returncode in (0, 1), proc.stderr
    assert "Traceback" not in proc.stderr
    if UPDATE:
        golden.write_bytes(target.read_bytes())
    assert target.read_bytes() == golden.read_bytes(), proc.stderr
    compile(target.read_bytes(), str(target), "exec")
    after = _codes(target)
    assert not [item for item in after if item[1] in ("TRF001", "TRF002")], after
    # what was not fixable is still reported, nothing new appears
    assert {code for _, code in after} <= {code for _, code in before}
    again = _fix(target)
    assert target.read_bytes() == golden.read_bytes()
    assert again.stderr.splitlines()[-1].startswith("fixed 0 of"), again.stderr


@pytest.mark.parametrize("source", GOLDEN, ids=lambda p: p.stem)
def test_each_fixed_site_is_named(source: Path, tmp_path: Path) -> None:
    target = tmp_path / source.name
    shutil.copy(source, target)
    wanted = {(line, code) for line, code in _codes(target) if code in ("TRF001", "TRF002")}
    proc = _fix(target)
    named = set()
    for row in proc.stderr.splitlines():
        parts = row.split(":")
        if len(parts) >= 4 and parts[3].startswith(" fixed "):
            named.add((int(parts[1]), parts[3].split()[1]))
    assert named == wanted, proc.stderr
    total = len(_codes(source))
    assert proc.stderr.splitlines()[-1].startswith(f"fixed {len(wanted)} of {total} finding")


def test_not_fixed_sites_are_listed_with_reasons(tmp_path: Path) -> None:
    source = FIX / "not_fixed.py"
    target = tmp_path / source.name
    shutil.copy(source, target)
    proc = _fix(target)
    assert proc.returncode == 1
    assert target.read_bytes() == source.read_bytes()
    notes = [row for row in proc.stderr.splitlines() if ": not fixed " in row]
    assert notes == [
        "not_fixed.py:9:28: not fixed TRF001: the spawn is inside a lambda: no statement to extend",
        "not_fixed.py:10:6: not fixed TRF001: the spawn is inside a comprehension: no statement to extend",
        "not_fixed.py:11:20: not fixed TRF001: the statement shares its line with its block header",
        "not_fixed.py:12:5: not fixed TRF001: the line holds several statements",
        "not_fixed.py:13:12: not fixed TRF002: the handle goes into a local collection or expression; "
        "keep that alive or await it",
        "not_fixed.py:13:40: not fixed TRF002: the handle goes into a local collection or expression; "
        "keep that alive or await it",
        "not_fixed.py:22:20: not fixed TRF001: the spawner itself is passed on as a callback: "
        "no statement to extend",
        "not_fixed.py:25:22: not fixed TRF003: needs a decision: cancel and await the task in "
        "'finally', keep it in a set, or wait on both with asyncio.wait()",
        "not_fixed.py:37:22: not fixed TRF001: other code in the statement runs before the spawn: "
        "no statement to extend",
        "not_fixed.py:38:11: not fixed TRF001: the spawn runs on some paths of a conditional expression only",
        "not_fixed.py:41:9: not fixed TRF001: the spawn spans several lines inside a larger statement",
    ]
    assert proc.stderr.splitlines()[-1] == "fixed 0 of 11 findings in 0 files; 11 left, see above"
    # the findings left are printed as usual, on stdout
    assert len(proc.stdout.splitlines()) == 11


def test_crlf_file_keeps_its_line_ends(tmp_path: Path) -> None:
    source = FIX / "method_new_set.py"
    golden = FIX / "method_new_set.fixed.py"
    target = tmp_path / source.name
    target.write_bytes(source.read_bytes().replace(b"\n", b"\r\n"))
    _fix(target)
    assert target.read_bytes() == golden.read_bytes().replace(b"\n", b"\r\n")


def test_diff_prints_the_fix_and_writes_nothing(tmp_path: Path) -> None:
    source = FIX / "method_new_set.py"
    golden = FIX / "method_new_set.fixed.py"
    target = tmp_path / source.name
    shutil.copy(source, target)
    proc = command("--isolated", "--diff", target.name, cwd=tmp_path)
    assert proc.returncode == 1, proc.stderr
    assert target.read_bytes() == source.read_bytes()
    want = f"diff --git a/{target.name} b/{target.name}\n" + "".join(difflib.unified_diff(
        source.read_text().splitlines(True), golden.read_text().splitlines(True),
        fromfile=f"a/{target.name}", tofile=f"b/{target.name}"))
    assert proc.stdout == want
    assert proc.stderr.splitlines()[-1] == "would fix 3 of 3 findings in 1 file"
    clean = command("--isolated", "--diff", golden.name, cwd=FIX)
    assert (clean.returncode, clean.stdout) == (0, "")


def test_fix_on_standard_input_prints_the_fixed_source(tmp_path: Path) -> None:
    source = FIX / "method_new_set.py"
    golden = FIX / "method_new_set.fixed.py"
    proc = command("--isolated", "--fix", "-", cwd=tmp_path, stdin=source.read_text())
    assert proc.stdout == golden.read_text()
    assert proc.returncode == 0, proc.stderr


def test_the_shared_case_is_fixed_and_its_trf003_is_left(tmp_path: Path) -> None:
    source = SHARED_CASES / "broken_service.py"
    target = tmp_path / source.name
    shutil.copy(source, target)
    proc = _fix(target)
    assert proc.returncode == 1  # the TRF003 stays
    fixed = target.read_text()
    compile(fixed, str(target), "exec")
    [(line, code)] = _codes(target)
    assert code == "TRF003" and "asyncio.wait_for(arrival" in fixed.splitlines()[line - 1]
    assert [c for _, _, c in expected(source)].count("TRF003") == 1
    assert ": not fixed TRF003: needs a decision" in proc.stderr
    changed = _changed_lines(source.read_text(), fixed)
    classes = {"RankDispatcher", "RegistryServer"}
    assert changed <= {"from typing import Any, Dict, Optional, Set"} | classes, changed
    before = target.read_bytes()
    _fix(target)
    assert target.read_bytes() == before


def _changed_lines(old: str, new: str) -> Set[str]:
    """For each changed line: the class it is in, or the line itself at top level."""
    owner = {}
    current = ""
    lines = new.splitlines()
    for number, line in enumerate(lines):
        if line.startswith("class "):
            current = line[6:].split("(")[0].split(":")[0]
        elif line and not line[0].isspace():
            current = ""
        owner[number] = current
    result: Set[str] = set()
    matcher = difflib.SequenceMatcher(a=old.splitlines(), b=lines)
    for tag, _, _, j1, j2 in matcher.get_opcodes():
        if tag != "equal":
            for number in range(j1, j2):
                result.add(owner[number] or lines[number])
    return result


def _run(path: Path) -> "subprocess.CompletedProcess[str]":
    return subprocess.run([sys.executable, str(path)], capture_output=True, text=True, timeout=60)


def test_tasks_lost_at_runtime_finish_after_the_fix(tmp_path: Path) -> None:
    source = FIX / "lost_at_runtime.py"
    broken = _run(source)
    assert broken.stdout.strip() == "finished 0 of 3"
    assert broken.stderr.count("Task was destroyed but it is pending!") == 3
    target = tmp_path / source.name
    shutil.copy(source, target)
    _fix(target)
    fixed = _run(target)
    assert fixed.stdout.strip() == "finished 3 of 3"
    assert "destroyed" not in fixed.stderr


def test_fix_without_libcst_says_which_extra(tmp_path: Path) -> None:
    blocker = tmp_path / "block"
    (blocker / "libcst").mkdir(parents=True)
    (blocker / "libcst" / "__init__.py").write_text("raise ImportError('No module named libcst')\n")
    target = tmp_path / "mod.py"
    shutil.copy(FIX / "method_new_set.py", target)
    env = dict(os.environ, PYTHONPATH=str(blocker))
    script = shutil.which("flake8-taskref", path=os.path.dirname(sys.executable))
    assert script is not None
    proc = subprocess.run([script, "--fix", "mod.py"], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2
    assert proc.stderr.strip().splitlines()[-1] == (
        "flake8-taskref: --fix and --diff need LibCST: "
        "pip install 'flake8-taskref[fix]'"
    )
    assert target.read_bytes() == (FIX / "method_new_set.py").read_bytes()
    # linting alone needs no LibCST
    lint_only = subprocess.run([script, "mod.py"], cwd=tmp_path, env=env,
                               capture_output=True, text=True, timeout=120)
    assert lint_only.returncode == 1 and "TRF001" in lint_only.stdout


def test_fixed_module_passes_under_taskref_gc(tmp_path: Path) -> None:
    """The runtime check (pytest --taskref-gc) confirms the loss before the fix and
    finds nothing after it."""
    shutil.copy(FIX / "lost_at_runtime.py", tmp_path / "svc.py")
    (tmp_path / "test_svc.py").write_text("import asyncio\n\nimport svc\n\n\ndef test_main():\n"
                                          "    asyncio.run(svc.main())\n")

    def run() -> "subprocess.CompletedProcess[str]":
        return subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                               "--taskref-gc", "test_svc.py"], cwd=tmp_path, capture_output=True,
                              text=True, timeout=300)

    before = run()
    assert before.returncode == 1, before.stdout
    assert "TRF001" in before.stdout
    _fix(tmp_path / "svc.py")
    after = run()
    assert after.returncode == 0, after.stdout + after.stderr


DRIVE_CLASSES = """
import asyncio, classes

async def main():
    objects = [classes.Slotted(), classes.Base(), classes.Child(), classes.Other(),
               classes.Inherits(), classes.Early(1), classes.Outer(), classes.Outer.Inner()]
    for obj in objects:
        if hasattr(obj, "go"):
            obj.go()
    child = objects[2]
    assert len(child._background_tasks) == 2, child._background_tasks  # its base's and its own
    assert len(classes._background_tasks) == 1
    await asyncio.sleep(0.05)
    assert not child._background_tasks and not classes._background_tasks
    print("ok")

asyncio.run(main())
"""


def test_fixed_classes_and_modules_run(tmp_path: Path) -> None:
    """The golden results run: no AttributeError (slots, an __init__ that calls a
    spawning method, overloads, a nested class), no subclass resets its base's
    set, no NameError at import (TYPE_CHECKING imports, a spawn in a try block)."""
    for name in ("classes", "module_level"):
        shutil.copy(FIX / f"{name}.fixed.py", tmp_path / f"{name}.py")
    proc = subprocess.run([sys.executable, "-c", DRIVE_CLASSES], cwd=tmp_path,
                          capture_output=True, text=True, timeout=60)
    assert proc.stdout.strip() == "ok", proc.stderr
    proc = subprocess.run([sys.executable, "-c",
                           "import asyncio, module_level as m\n"
                           "async def main():\n    m.f(1); m.h(); await asyncio.sleep(0)\n"
                           "asyncio.run(main())\nm.loop.close()\nprint(len(m._background_tasks))"],
                          cwd=tmp_path, capture_output=True, text=True, timeout=60)
    # the task on the loop that never runs is still kept; h() printed its local set
    assert (proc.returncode, proc.stdout.split()) == (0, ["1", "1"]), proc.stderr
