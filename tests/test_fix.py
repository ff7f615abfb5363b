"""``flake8-taskref --fix`` and ``--diff``, through the installed console script.

Golden files, as in flake8-async's autofix tests: ``tests/data/fix/NAME.py`` is
fixed in a copy and must equal ``NAME.fixed.py`` (the default, module form) and
``NAME.instance.fixed.py`` (``--fix-keep instance``, where it exists) byte for
byte; the result must compile, lint clean of TRF001/TRF002 through the real
flake8, and a second ``--fix`` must change nothing.  A first line
``# flake8-taskref-args: ...`` passes options.  Regenerate a golden file (then
read its diff!) with ``TASKREF_UPDATE_GOLDEN=1 python -m pytest tests/test_fix.py``.
"""
from __future__ import annotations

import difflib
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path
from typing import List, Set, Tuple

import pytest

from tests.harness import DATA, SHARED_CASES, expected, lint

FIX = DATA / "fix"
INPUTS = sorted(p for p in FIX.glob("*.py") if not p.name.endswith(".fixed.py"))
FORMS = {"": (), ".instance": ("--fix-keep", "instance")}
GOLDEN = [
    (p, form) for p in INPUTS for form in FORMS if p.with_name(f"{p.stem}{form}.fixed.py").exists()
]
UPDATE = os.environ.get("TASKREF_UPDATE_GOLDEN") == "1"


def command(*args: str, cwd: Path, stdin: str = "") -> "subprocess.CompletedProcess[str]":
    """The installed console script, as a user runs it."""
    script = shutil.which("flake8-taskref", path=os.path.dirname(sys.executable))
    assert script is not None, "flake8-taskref is not installed beside this python"
    return subprocess.run([script, *args], cwd=cwd, capture_output=True, text=True,
                          input=stdin, timeout=300)


def file_args(path: Path) -> List[str]:
    first = path.read_text(encoding="utf-8").splitlines()[0]
    prefix = "# flake8-taskref-args:"
    return shlex.split(first[len(prefix):]) if first.startswith(prefix) else []


def _fix(path: Path, *extra: str) -> "subprocess.CompletedProcess[str]":
    return command("--isolated", "--select", "TRF", "--fix", *file_args(path), *extra, path.name,
                   cwd=path.parent)


def _codes(path: Path) -> List[Tuple[int, str]]:
    return [(line, code) for line, _, code, _ in lint([path]).get(str(path), [])]


def _golden(source: Path, form: str) -> Path:
    return source.with_name(f"{source.stem}{form}.fixed.py")


def _ids(case: Tuple[Path, str]) -> str:
    return case[0].stem + case[1]


def test_there_are_golden_files() -> None:
    assert len([case for case in GOLDEN if case[1] == ""]) >= 14
    assert len([case for case in GOLDEN if case[1] == ".instance"]) >= 7
    for source, form in GOLDEN:
        assert source.read_bytes() != _golden(source, form).read_bytes(), source


@pytest.mark.parametrize("case", GOLDEN, ids=_ids)
def test_fix_matches_golden_file(case: Tuple[Path, str], tmp_path: Path) -> None:
    source, form = case
    golden = _golden(source, form)
    target = tmp_path / source.name
    shutil.copy(source, target)
    before = _codes(target)
    assert any(code in ("TRF001", "TRF002") for _, code in before)
    proc = _fix(target, *FORMS[form])
    assert proc.returncode in (0, 1), proc.stderr
    assert "Traceback" not in proc.stderr and "not fixed: FixError" not in proc.stderr, proc.stderr
    if UPDATE:
        golden.write_bytes(target.read_bytes())
    assert target.read_bytes() == golden.read_bytes(), proc.stderr
    compile(target.read_bytes(), str(target), "exec")
    after = _codes(target)
    assert not [item for item in after if item[1] in ("TRF001", "TRF002")], after
    # what was not fixable is still reported, nothing new appears
    assert {code for _, code in after} <= {code for _, code in before}
    again = _fix(target, *FORMS[form])
    assert target.read_bytes() == golden.read_bytes()
    assert again.stderr.splitlines()[-1].startswith("fixed 0 of"), again.stderr


@pytest.mark.parametrize("case", GOLDEN, ids=_ids)
def test_each_fixed_site_is_named(case: Tuple[Path, str], tmp_path: Path) -> None:
    source, form = case
    target = tmp_path / source.name
    shutil.copy(source, target)
    wanted = {(line, code) for line, code in _codes(target) if code in ("TRF001", "TRF002")}
    proc = _fix(target, *FORMS[form])
    named = set()
    for row in proc.stderr.splitlines():
        parts = row.split(":")
        if len(parts) >= 4 and parts[3].startswith(" fixed "):
            named.add((int(parts[1]), parts[3].split()[1]))
    assert named == wanted, proc.stderr
    total = len(_codes(source))
    assert proc.stderr.splitlines()[-1].startswith(f"fixed {len(wanted)} of {total} finding")


def _ruff(path: Path) -> List[Tuple[str, str]]:
    """Ruff's import-order, pyflakes and syntax findings (code, message)."""
    proc = subprocess.run(
        [sys.executable, "-m", "ruff", "check", "--isolated", "--select", "I,F,E9", "--target-version",
         "py39", "--config", "lint.isort.known-first-party = ['mypkg']", "--output-format", "json",
         "--exit-zero", path.name], cwd=path.parent, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    return sorted((item["code"], item["message"]) for item in json.loads(proc.stdout))


@pytest.mark.parametrize("case", GOLDEN, ids=_ids)
def test_ruff_finds_nothing_new_and_new_lines_fit(case: Tuple[Path, str], tmp_path: Path) -> None:
    """Ruff's I (import order), F and E9 rules report nothing the original did
    not (the fix adds no import); every line the fix writes fits the line length
    (79 with --isolated, or the file's --max-line-length), broken as Black would."""
    source, form = case
    before_dir, after_dir = tmp_path / "before", tmp_path / "after"
    before_dir.mkdir()
    after_dir.mkdir()
    shutil.copy(source, before_dir / source.name)
    shutil.copy(_golden(source, form), after_dir / source.name)
    before, after = _ruff(before_dir / source.name), _ruff(after_dir / source.name)
    assert [item for item in after if item not in before] == []
    args = file_args(source)
    limit = int(args[args.index("--max-line-length") + 1]) if "--max-line-length" in args else 79
    old = set(source.read_text(encoding="utf-8").splitlines())
    new = [line for line in _golden(source, form).read_text(encoding="utf-8").splitlines() if line not in old]
    assert new and all(len(line.expandtabs(4)) <= limit for line in new), [
        line for line in new if len(line.expandtabs(4)) > limit
    ]


# goldens whose original passes mypy --strict: so must what the fix writes
MYPY_CLEAN = ("typed_futures", "handle_names", "pragmas")


@pytest.mark.parametrize("name", MYPY_CLEAN)
def test_typed_files_stay_clean_for_mypy(name: str) -> None:
    """The set's type holds every task and future the file keeps in it (a
    ``gather()`` or ``ensure_future()`` result is a Future, not a Task)."""
    files = [FIX / f"{name}.py", *(FIX / f"{name}{form}.fixed.py" for form in FORMS)]
    assert all(path.exists() for path in files)
    proc = subprocess.run([sys.executable, "-m", "mypy", "--strict", "--no-incremental",
                           *map(str, files)], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_a_pragma_stays_on_the_line_of_its_code(tmp_path: Path) -> None:
    """A ``# type: ignore[...]`` on a statement the fix rewrites stays on one line
    with the code it covered (mypy and pyright apply it to the nodes that span
    its line): wrapped in parentheses where the line is too long, left long
    where even that does not fit, and a spawn is not moved off its line; each
    note says what was done (issue 25)."""
    start = "    asyncio.create_task(legacy({}))  # type: ignore[no-untyped-call]"
    wide = start.format("r" * (79 - len(start.format(""))))  # 79 wide: no room for the parentheses
    narrow = start.format("r" * (75 - len(start.format(""))))  # 75: room for them
    retries = "r" * (79 - len(start.format("")))
    source = (
        "import asyncio\n\n\ndef legacy(n):  # type: ignore[no-untyped-def]\n    return asyncio.sleep(n)\n"
        f"\n\ndef start({retries}: int, {retries[:-4]}: int) -> None:\n{wide}\n{narrow}\n"
        f"    print(asyncio.create_task(legacy({retries})))  # type: ignore[no-untyped-call]\n"
    )
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "x"\nrequires-python = ">=3.9"\n')
    (tmp_path / "mod.py").write_text(source)
    proc = command("--fix", "mod.py", cwd=tmp_path)
    assert proc.returncode == 1, proc.stderr
    assert proc.stderr.splitlines() == [
        "mod.py:9:5: fixed TRF001 (kept in _background_tasks; a line left 93 columns wide (limit 79): "
        "'# type: ignore[no-untyped-call]' must stay on one line with the code it covers)",
        "mod.py:10:5: fixed TRF001 (kept in _background_tasks; '# type: ignore[no-untyped-call]' kept on "
        "one line with the code it covers, in parentheses)",
        "mod.py:11:11: not fixed TRF001: the spawn would move off the line of "
        "'# type: ignore[no-untyped-call]', which may cover it",
        "fixed 2 of 3 findings in 1 file; 1 left, see above",
    ]
    lines = (tmp_path / "mod.py").read_text().splitlines()
    assert lines[10:] == [
        "    legacy_task = " + wide.lstrip(),
        "    _background_tasks.add(legacy_task)",
        "    legacy_task.add_done_callback(_background_tasks.discard)",
        "    del legacy_task",
        "    legacy_task_1 = (",
        "    " + narrow,
        "    )",
        "    _background_tasks.add(legacy_task_1)",
        "    legacy_task_1.add_done_callback(_background_tasks.discard)",
        "    del legacy_task_1",
        f"    print(asyncio.create_task(legacy({retries})))  # type: ignore[no-untyped-call]",
    ]
    mypy = subprocess.run([sys.executable, "-m", "mypy", "--strict", "--no-incremental", "mod.py"],
                          cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert mypy.returncode == 0, mypy.stdout


def test_a_set_typed_for_asyncio_takes_no_concurrent_future(tmp_path: Path) -> None:
    """run_coroutine_threadsafe() returns a concurrent.futures.Future: an existing
    set typed ``set[asyncio.Future[Any]]`` would fail a type checker."""
    assert _not_fixed("threadsafe_typed_set.py", tmp_path)[1] == [
        "threadsafe_typed_set.py:14:5: not fixed TRF001: the set _background_tasks is typed for asyncio's "
        "tasks and futures, and this makes a concurrent.futures.Future"]


def test_a_loop_method_that_does_not_exist_is_left_alone(tmp_path: Path) -> None:
    """An event loop has no ``ensure_future``: the call raises AttributeError and
    makes no task, so --fix keeps nothing there (it fixes the loop's create_task)."""
    target = tmp_path / "mod.py"
    target.write_text(
        "import asyncio\n\n\nasync def main(job):\n    loop = asyncio.get_running_loop()\n"
        "    loop.ensure_future(job())\n    loop.create_task(job())\n", encoding="utf-8")
    proc = _fix(target)
    assert proc.returncode in (0, 1), proc.stderr
    assert proc.stderr.splitlines()[-1].startswith("fixed 1 of 1 finding"), proc.stderr
    text = target.read_text(encoding="utf-8")
    assert "    loop.ensure_future(job())\n" in text
    assert "= loop.create_task(job())" in text


def _not_fixed(name: str, tmp_path: Path) -> Tuple["subprocess.CompletedProcess[str]", List[str]]:
    """``--fix`` on a copy of a file of tests/data/fix with nothing it can fix:
    exit 1, the file unchanged; the run, and its sites listed with their reasons."""
    source = FIX / name
    target = tmp_path / source.name
    shutil.copy(source, target)
    proc = _fix(target)
    assert proc.returncode == 1
    assert target.read_bytes() == source.read_bytes()
    return proc, [row for row in proc.stderr.splitlines() if ": not fixed " in row]


def test_not_fixed_sites_are_listed_with_reasons(tmp_path: Path) -> None:
    proc, notes = _not_fixed("not_fixed.py", tmp_path)
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
        "not_fixed.py:53:25: not fixed TRF001: other code in the statement runs before the spawn: "
        "no statement to extend",
    ]
    assert proc.stderr.splitlines()[-1] == "fixed 0 of 12 findings in 0 files; 12 left, see above"
    # the findings left are printed as usual, on stdout
    assert len(proc.stdout.splitlines()) == 12


def test_a_set_typed_for_tasks_is_not_given_a_future(tmp_path: Path) -> None:
    """An existing keep set typed ``Task[object]`` takes a new task, but not the
    Future of ``ensure_future()``: a type checker would reject it."""
    target = tmp_path / "typed.py"
    target.write_text(
        "import asyncio\n\n"
        "background_tasks: 'set[asyncio.Task[object]]' = set()\n\n\n"
        "async def job() -> None:\n    await asyncio.sleep(1)\n\n\n"
        "def start() -> None:\n"
        "    asyncio.create_task(job())\n"
        "    asyncio.ensure_future(job())\n",
        encoding="utf-8",
    )
    proc = _fix(target)
    assert proc.returncode == 1, proc.stderr
    assert proc.stderr.splitlines() == [
        "typed.py:11:5: fixed TRF001 (kept in background_tasks)",
        "typed.py:12:5: not fixed TRF001: "
        "the set background_tasks is typed for tasks, and this makes a future",
        "fixed 1 of 2 findings in 1 file; 1 left, see above",
    ]
    assert "job_task = asyncio.create_task(job())\n    background_tasks.add(job_task)\n" in target.read_text()


def test_crlf_file_keeps_its_line_ends(tmp_path: Path) -> None:
    source = FIX / "method_new_set.py"
    golden = FIX / "method_new_set.fixed.py"
    target = tmp_path / source.name
    target.write_bytes(source.read_bytes().replace(b"\n", b"\r\n"))
    _fix(target)
    assert target.read_bytes() == golden.read_bytes().replace(b"\n", b"\r\n")


def _git_diff(old: Path, new: Path) -> List[str]:
    """git's own diff of two files in one folder, named as ``old``, without its
    index line and the function names it writes after a hunk's range."""
    git = subprocess.run(["git", "diff", "--no-index", "--no-color", "--no-ext-diff", old.name, new.name],
                         cwd=old.parent, capture_output=True, text=True)
    assert git.returncode == 1, git.stderr
    return [re.sub(r"^(@@ [^@]* @@).*", r"\1", line).replace(new.name, old.name)
            for line in git.stdout.splitlines() if not line.startswith("index ")]


def test_diff_hunks_are_gits_in_a_long_file(tmp_path: Path) -> None:
    """In a long file, lines repeated everywhere (``except Exception as e:``,
    ``)``) anchor nothing for difflib's default matcher, which showed them as
    removed and added again, and placed new lines before a ``)`` instead of
    after it.  The hunks are now those git shows."""
    block = (
        "    try:\n        await job()\n"
        "        asyncio.create_task(\n            job()\n        )\n"
        "    except Exception as e:\n        asyncio.create_task(job())\n        print(e)\n"
    )
    source = "import asyncio\n\n\nasync def job() -> None:\n    pass\n"
    source += "".join(f"\n\nasync def handler_{n}() -> None:\n{block}" for n in range(40))
    target = tmp_path / "long.py"
    target.write_text(source)
    proc = command("--isolated", "--diff", target.name, cwd=tmp_path)
    assert proc.returncode == 1, proc.stderr
    fixed = tmp_path / "fixed.py"
    fixed.write_text(source)
    assert command("--isolated", "--fix", fixed.name, cwd=tmp_path).returncode == 0
    assert proc.stdout.splitlines() == _git_diff(target, fixed)
    assert "-    except Exception as e:" not in proc.stdout


def test_diff_prints_the_fix_and_writes_nothing(tmp_path: Path) -> None:
    source = FIX / "method_new_set.py"
    golden = FIX / "method_new_set.fixed.py"
    target = tmp_path / source.name
    shutil.copy(source, target)
    proc = command("--isolated", "--diff", target.name, cwd=tmp_path)
    assert proc.returncode == 1, proc.stderr
    assert target.read_bytes() == source.read_bytes()
    # git's own diff of the two files, without its index line and the function
    # names it writes after a hunk's range
    fixed = tmp_path / "fixed.py"
    shutil.copy(golden, fixed)
    assert proc.stdout.splitlines() == _git_diff(target, fixed)
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
    assert changed <= {'_background_tasks: "set[asyncio.Task[object]]" = set()', ""} | classes, changed
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


def test_fix_without_black_says_which_extra(tmp_path: Path) -> None:
    """Without the fix extra (Black cannot be imported), --fix and --diff stop
    with one line naming the extra; linting alone needs no extra."""
    target = tmp_path / "mod.py"
    shutil.copy(FIX / "method_new_set.py", target)
    hidden = ("import sys; sys.modules['black'] = None; "
              "from flake8_taskref.command.cli import main; sys.exit(main())")
    for flag in ("--fix", "--diff"):
        proc = subprocess.run([sys.executable, "-c", hidden, flag, "mod.py"], cwd=tmp_path,
                              capture_output=True, text=True, timeout=120)
        assert proc.returncode == 2, proc.stderr
        assert proc.stderr.strip().splitlines()[-1] == (
            "flake8-taskref: --fix and --diff need Black: pip install 'flake8-taskref[fix]'"
        )
    assert target.read_bytes() == (FIX / "method_new_set.py").read_bytes()
    lint_only = subprocess.run([sys.executable, "-c", hidden, "mod.py"], cwd=tmp_path,
                               capture_output=True, text=True, timeout=120)
    assert lint_only.returncode == 1 and "TRF001" in lint_only.stdout, lint_only.stderr


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
import asyncio, gc, sys, weakref, classes

done = []
destroyed = []
events = []  # held weakly: a task waiting on one is reachable only through its handle

async def job():
    event = asyncio.Event()
    events.append(weakref.ref(event))
    await event.wait()
    done.append(1)

classes.job = job
if sys.argv[1] == "none":
    gc.disable()

async def main():
    asyncio.get_running_loop().set_exception_handler(lambda loop, ctx: destroyed.append(ctx["message"]))
    objects = [classes.Slotted(), classes.Base(), classes.Child(), classes.Other(),
               classes.Inherits(), classes.Early(1), classes.Outer(), classes.Outer.Inner()]
    for obj in objects:
        if hasattr(obj, "go"):
            obj.go()
    await asyncio.sleep(0)  # every task starts waiting
    if sys.argv[1] == "collect":  # the objects are dropped: only a module set keeps their tasks
        del objects
    if sys.argv[1] != "none":
        gc.collect()
    for ref in events:
        event = ref()
        if event is not None:
            event.set()
    await asyncio.sleep(0.05)
    print(len(done), len(destroyed))

asyncio.run(main())
"""


@pytest.mark.parametrize("form", list(FORMS))
def test_fixed_classes_and_modules_run(form: str, tmp_path: Path) -> None:
    """The golden results run: no AttributeError (slots, an __init__ that calls a
    spawning method, overloads, a nested class), no subclass resets its base's
    set, no NameError at import (TYPE_CHECKING imports, a spawn in a try block);
    every task the original runs (when no collection happens) runs after the fix
    under a collection, and none is destroyed."""
    shutil.copy(FIX / "classes.py", tmp_path / "classes.py")

    def drive(mode: str) -> List[str]:
        proc = subprocess.run([sys.executable, "-c", DRIVE_CLASSES, mode], cwd=tmp_path,
                              capture_output=True, text=True, timeout=60)
        assert proc.returncode == 0, proc.stderr
        return proc.stdout.split()

    original = drive("none")
    assert original == ["10", "0"]  # ten tasks, when nothing collects them
    # a collection: the objects dropped (module form), or alive (the instance form's
    # sets live as long as their objects, see short_lived.py)
    mode = "collect" if form == "" else "collect-alive"
    assert drive(mode)[1] != "0"  # the original loses tasks
    shutil.copy(FIX / f"classes{form}.fixed.py", tmp_path / "classes.py")
    assert drive(mode) == original
    shutil.copy(FIX / "module_level.fixed.py", tmp_path / "module_level.py")
    proc = subprocess.run([sys.executable, "-c",
                           "import asyncio, module_level as m\n"
                           "async def main():\n    m.f(1); m.h(); await asyncio.sleep(0)\n"
                           "asyncio.run(main())\nm.loop.close()\nprint(len(m._background_tasks))"],
                          cwd=tmp_path, capture_output=True, text=True, timeout=60)
    # the task on the loop that never runs is still kept; h() printed its local set
    assert (proc.returncode, proc.stdout.split()) == (0, ["1", "1"]), proc.stderr


@pytest.mark.parametrize(
    "config, extra, keeper",
    [
        ({}, [], "_background_tasks"),
        ({"setup.cfg": "[flake8]\nfix-keep = instance\n"}, [], "self.__background_tasks"),
        ({"tox.ini": "[flake8]\nfix_keep = instance\n"}, [], "self.__background_tasks"),
        ({"pyproject.toml": '[tool.flake8-taskref]\nfix-keep = "instance"\n'}, [], "self.__background_tasks"),
        ({"setup.cfg": "[flake8]\nfix-keep = instance\n"}, ["--fix-keep", "module"], "_background_tasks"),
        ({}, ["--fix-keep", "instance"], "self.__background_tasks"),
    ],
)
def test_fix_keep_from_both_configuration_homes(
    config: "dict[str, str]", extra: List[str], keeper: str, tmp_path: Path
) -> None:
    """--fix-keep, and fix-keep in flake8's section or in pyproject.toml's table
    (the command line wins)."""
    for name, text in config.items():
        (tmp_path / name).write_text(text)
    shutil.copy(FIX / "short_lived.py", tmp_path / "mod.py")
    proc = command("--select", "TRF", "--diff", *extra, "mod.py", cwd=tmp_path)
    assert proc.returncode == 1, proc.stderr
    assert f"mod.py:14:9: would fix TRF001 (kept in {keeper})" in proc.stderr.splitlines()


@pytest.mark.parametrize(
    "config, extra, limit",
    [
        ({}, [], 79),
        ({"setup.cfg": "[flake8]\nmax-line-length = 60\n"}, [], 60),
        ({"pyproject.toml": "[tool.ruff]\nline-length = 60\n"}, [], 60),
        ({"pyproject.toml": "[tool.black]\nline-length = 60\n"}, [], 60),
        ({"pyproject.toml": "[tool.black]\nline-length = 60\n[tool.ruff]\nline-length = 120\n"}, [], 120),
        ({"pyproject.toml": "[tool.ruff]\nline-length = 60\n",
          "setup.cfg": "[flake8]\nmax-line-length = 120\n"}, [], 120),
        ({"setup.cfg": "[flake8]\nmax-line-length = 120\n"}, ["--max-line-length", "60"], 60),
    ],
)
def test_line_length_of_the_fix(
    config: "dict[str, str]", extra: List[str], limit: int, tmp_path: Path
) -> None:
    """The fix breaks its lines at flake8's max-line-length (ours), else Ruff's
    line-length, else Black's, else 79."""
    for name, text in config.items():
        (tmp_path / name).write_text(text)
    source = (FIX / "long_lines.py").read_text().replace("# flake8-taskref-args: --max-line-length 60\n", "")
    (tmp_path / "mod.py").write_text(source)
    proc = command("--select", "TRF", "--fix", *extra, "mod.py", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    new = [line for line in (tmp_path / "mod.py").read_text().splitlines() if line not in source.splitlines()]
    longest = max(len(line) for line in new)
    assert longest <= limit
    assert (longest > 60) == (limit > 60)  # broken only where it had to be


def test_bad_fix_settings_are_usage_errors(tmp_path: Path) -> None:
    shutil.copy(FIX / "short_lived.py", tmp_path / "mod.py")
    proc = command("--fix-keep", "class", "mod.py", cwd=tmp_path)
    assert proc.returncode == 2 and "invalid choice: 'class'" in proc.stderr
    (tmp_path / "setup.cfg").write_text("[flake8]\nfix-keep = class\nmax-line-length = wide\n")
    proc = command("--diff", "mod.py", cwd=tmp_path)
    assert proc.returncode == 2
    assert proc.stderr.splitlines()[-1].endswith("--fix-keep: 'class' is not one of module, instance")


@pytest.mark.parametrize(
    "config, annotation",
    [
        ({}, '"set[asyncio.Task[object]]"'),  # the oldest Python is unknown: quoted
        ({"pyproject.toml": '[project]\nname = "x"\nrequires-python = ">=3.9"\n'},
         "set[asyncio.Task[object]]"),
        ({"pyproject.toml": '[project]\nname = "x"\nrequires-python = ">=3.8, <4"\n'},
         '"set[asyncio.Task[object]]"'),
        ({"setup.cfg": "[options]\npython_requires = >=3.10\n"}, "set[asyncio.Task[object]]"),
        ({"pyproject.toml": '[tool.ruff]\ntarget-version = "py311"\n'}, "set[asyncio.Task[object]]"),
        ({"ruff.toml": 'target-version = "py37"\n'}, '"set[asyncio.Task[object]]"'),
        ({"pyproject.toml": '[tool.black]\ntarget-version = ["py39", "py310"]\n'},
         "set[asyncio.Task[object]]"),
    ],
)
def test_module_set_annotation_follows_the_oldest_python(
    config: "dict[str, str]", annotation: str, tmp_path: Path
) -> None:
    """A module-level annotation runs at import: set[...] and asyncio.Task[...]
    fail there before Python 3.9, so it is quoted unless the project says it
    needs 3.9 or later (requires-python, python_requires, Ruff's or Black's
    target version)."""
    for name, text in config.items():
        (tmp_path / name).write_text(text)
    (tmp_path / "mod.py").write_text("import asyncio\n\n\nasync def main() -> None:\n"
                                     "    asyncio.create_task(asyncio.sleep(1))\n")
    proc = command("--fix", "mod.py", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert f"_background_tasks: {annotation} = set()" in (tmp_path / "mod.py").read_text()


@pytest.mark.parametrize(
    "imports, spawn, annotation",
    [
        ("import asyncio.base_events\n", "asyncio.create_task(asyncio.sleep(1))",
         "set[asyncio.Task[object]]"),
        ("import asyncio.base_events\nfrom typing import Any\n", "asyncio.ensure_future(asyncio.sleep(1))",
         "set[asyncio.Future[Any]]"),
        ("import os.path, asyncio.events\nimport typing\n", "asyncio.gather(main())",
         "set[asyncio.Future[typing.Any]]"),
        # ``as`` binds the submodule, not asyncio
        ("import asyncio.base_events as base_events\nimport asyncio.tasks\n",
         "asyncio.create_task(asyncio.sleep(1))", "set[asyncio.Task[object]]"),
        ("import asyncio.base_events as base_events\n",
         "base_events.tasks.create_task(base_events.tasks.sleep(1))",
         "set[object]"),
    ],
    ids=["task", "future", "several", "as", "only as"],
)
def test_a_submodule_import_binds_asyncio(imports: str, spawn: str, annotation: str, tmp_path: Path) -> None:
    """``import asyncio.base_events`` binds the name ``asyncio``: the module set
    is typed with it, as with ``import asyncio`` (issue 25)."""
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "x"\nrequires-python = ">=3.9"\n')
    (tmp_path / "mod.py").write_text(f"{imports}\n\nasync def main() -> None:\n    {spawn}\n")
    proc = command("--fix", "mod.py", cwd=tmp_path)
    assert proc.stderr.splitlines()[-1] == "fixed 1 of 1 finding in 1 file", proc.stderr
    assert f"_background_tasks: {annotation} = set()\n" in (tmp_path / "mod.py").read_text()


@pytest.mark.parametrize(
    "imports, annotation",
    [
        ("import asyncio\nfrom typing import Any\n", "_background_tasks: set[asyncio.Task[Any]] = set()\n"),
        ("import asyncio\nimport typing\n", "_background_tasks: set[asyncio.Task[typing.Any]] = set()\n"),
        ("import asyncio\n", "_background_tasks = set()\n"),
    ],
    ids=["Any", "typing", "neither"],
)
def test_a_file_that_binds_object_types_the_set_with_any(
    imports: str, annotation: str, tmp_path: Path
) -> None:
    """A file that binds ``object`` somewhere (a parameter: appdaemon's
    ``add_plugin_object(self, name, object)``) cannot use ``Task[object]``: the
    set is typed ``Task[Any]`` where the file has ``Any``, and left untyped where
    it has not (the thirty-eighth trial's sweep found it untyped with ``Any`` at hand)."""
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "x"\nrequires-python = ">=3.9"\n')
    (tmp_path / "mod.py").write_text(
        f"{imports}\n\ndef add(name, object):\n    return object\n\n\n"
        "async def main() -> None:\n    asyncio.create_task(asyncio.sleep(1))\n"
    )
    proc = command("--fix", "mod.py", cwd=tmp_path)
    assert proc.stderr.splitlines()[-1] == "fixed 1 of 1 finding in 1 file", proc.stderr
    assert annotation in (tmp_path / "mod.py").read_text()


@pytest.mark.parametrize(
    "config, limit",
    [
        ({"pyproject.toml": "[tool.ruff]\nselect = ['E']\n"}, 88),
        ({"pyproject.toml": "[tool.black]\n"}, 88),
        ({".ruff.toml": "line-length = 60\n"}, 60),
        ({"pyproject.toml": "[tool.ruff]\nline-length = 100\n", "ruff.toml": "line-length = 60\n"}, 60),
    ],
)
def test_formatter_defaults_and_files(config: "dict[str, str]", limit: int, tmp_path: Path) -> None:
    """Ruff and Black break at 88 where they are configured without a line
    length; Ruff's own ruff.toml or .ruff.toml wins over pyproject.toml, as Ruff reads it."""
    for name, text in config.items():
        (tmp_path / name).write_text(text)
    # the fixed line is exactly as long as the limit: kept whole at it, broken below it
    name = "n" * (limit - len("    work_task = asyncio.create_task(work(), name='')"))
    fixed_line = f"    work_task = asyncio.create_task(work(), name='{name}')"
    (tmp_path / "mod.py").write_text(
        "import asyncio\n\nfrom app import work\n\n\nasync def main() -> None:\n"
        f"    asyncio.create_task(work(), name='{name}')\n"
    )
    proc = command("--fix", "mod.py", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert len(fixed_line) == limit and fixed_line in (tmp_path / "mod.py").read_text().splitlines()


SPAWNS_IN_A_METHOD = (
    "import asyncio\n\n\nclass Client:\n    def __init__(self):\n        self.n = 0\n\n"
    "    def restart(self):\n        asyncio.ensure_future(self.run())\n\n"
    "    async def run(self):\n        pass\n"
)


@pytest.mark.parametrize("binding,fixed", [
    ("from cachelib import set\n", False),                    # the module's set
    ("\n\ndef set(*items):\n    return list(items)\n", False),
    ("\n\ndef reset():\n    global set\n    set = list\n", False),
    ("\n\nclass Other:\n    def __init__(self, set=()):\n        self.items = set\n", False),
    ("\n\nclass Store:\n    def set(self, key, value):\n        pass\n", True),  # a method
    ("\n\nclass Flags:\n    set = 1\n", True),               # a class attribute
    ("\n\ndef fill(set):\n    return [set]\n", True),          # a parameter elsewhere
], ids=["import", "module def", "global", "__init__ parameter", "method", "class attribute",
        "other function"])
@pytest.mark.parametrize("form", list(FORMS))
def test_a_file_that_binds_set_where_the_fix_calls_it_is_not_fixed(
    binding: str, fixed: bool, form: str, tmp_path: Path,
) -> None:
    """set() must make a set: a file that rebinds the name where the fix calls
    it (the module, an ``__init__``) is left, with the reason; a method, class
    attribute or another function's local named ``set`` changes nothing there
    (distributed's ``Variable.set`` kept its file from being fixed)."""
    source = SPAWNS_IN_A_METHOD + binding
    (tmp_path / "mod.py").write_text(source)
    proc = command("--fix", *FORMS[form], "mod.py", cwd=tmp_path)
    assert proc.returncode == (0 if fixed else 1), proc.stderr
    after = (tmp_path / "mod.py").read_text()
    if fixed:
        assert after != source and "mod.py:9:9: fixed TRF001" in proc.stderr, proc.stderr
        compile(after, "mod.py", "exec")
    else:
        assert after == source
        assert "mod.py:9:9: not fixed TRF001: the file binds the name 'set'" in proc.stderr.splitlines()


def _left_as_it_is(tmp_path: Path, name: str, *extra: str) -> List[str]:
    """--fix of a copy of the fixture ``name`` whose sites it cannot fix: exit
    1, the file unchanged; the rows that list the sites not fixed."""
    source = DATA / name
    target = tmp_path / source.name
    shutil.copy(source, target)
    proc = _fix(target, *extra)
    assert proc.returncode == 1
    assert target.read_bytes() == source.read_bytes()
    return [row for row in proc.stderr.splitlines() if ": not fixed " in row]


def test_trf007_sites_are_listed_as_not_fixed(tmp_path: Path) -> None:
    """TRF007 (a task pending at an exit on one path) needs a decision: --fix
    leaves the file as it is and lists each site with the reason, no crash."""
    reason = "needs a decision: finish the task on the path that leaves (cancel and await it), or keep it"
    timeout = ("needs a decision: cancel and await the task in 'finally', keep it in a set, "
               "or wait on both with asyncio.wait()")
    expected = [
        f"trf007_lost_on_exit.py:{line}:{col}: not fixed TRF007: {reason}"
        for line, col in ((17, 22), (24, 22), (55, 14), (89, 16), (117, 16), (129, 16), (150, 14), (233, 11),
                          (268, 16), (276, 16), (336, 20), (345, 20), (389, 14), (405, 14), (488, 14),
                          (512, 20))
    ]
    # the future whose timeout passes a ValueError handler: TRF003's
    expected.insert(8, f"trf007_lost_on_exit.py:260:16: not fixed TRF003: {timeout}")
    assert _left_as_it_is(tmp_path, "trf007_lost_on_exit.py") == expected


def test_a_task_made_before_its_cleanup_is_listed_as_not_fixed(tmp_path: Path) -> None:
    """TRF007 for a wait between the spawn and the try that cleans it up: moving
    the spawn into the try is the user's to make; --fix lists each site."""
    reason = "needs a decision: finish the task on the path that leaves (cancel and await it), or keep it"
    assert _left_as_it_is(tmp_path, "trf007_spawned_before_try.py") == [
        f"trf007_spawned_before_try.py:{line}:{col}: not fixed TRF007: {reason}"
        for line, col in ((18, 17), (27, 14), (40, 14))
    ]


def test_trf008_sites_are_listed_as_not_fixed(tmp_path: Path) -> None:
    """TRF008 (a fail-fast gather of the function's own tasks) needs a decision:
    --fix leaves the file as it is and lists each site with the reason."""
    reason = ("needs a decision: cancel and await the tasks in 'finally', use a TaskGroup, "
              "or return_exceptions=True and check the results")
    assert _left_as_it_is(tmp_path, "trf008_gather_fails_fast.py", "--extend-select", "TRF008") == [
        f"trf008_gather_fails_fast.py:{line}:{col}: not fixed TRF008: {reason}"
        for line, col in (
            (14, 11), (30, 18), (41, 27), (60, 15), (78, 28), (113, 11), (160, 15), (205, 18), (214, 11),
            (222, 11), (231, 11),
        )
    ]


def test_trf010_sites_are_listed_as_not_fixed(tmp_path: Path) -> None:
    """TRF010 (a wait a cancellation of the function leaves tasks behind) needs a
    decision: --fix leaves the file as it is and lists each site with the reason."""
    reason = "needs a decision: cancel the tasks in 'finally' (and wait for them), or use a TaskGroup"
    assert _left_as_it_is(tmp_path, "trf010_wait_cancelled.py", "--extend-select", "TRF010") == [
        f"trf010_wait_cancelled.py:{line}:{col}: not fixed TRF010: {reason}"
        for line, col in ((30, 11), (38, 15), (44, 27), (130, 15), (154, 31))
    ]


def test_a_spawn_an_and_drops_is_listed_as_not_fixed(tmp_path: Path) -> None:
    """``create_task(...) and None`` in a lambda: no statement of its own to keep the
    task in, and the reason names the ``and``."""
    assert _left_as_it_is(tmp_path, "trf001_dropped_by_and.py") == [
        "trf001_dropped_by_and.py:10:33: not fixed TRF001: the 'and' the spawn starts drops its task "
        "(a task is true): no statement to extend"
    ]


def test_a_task_its_own_coroutine_clears_is_listed_as_not_fixed(tmp_path: Path) -> None:
    """TRF001 on ``self.x = create_task(self._run())`` whose coroutine clears
    ``self.x`` and waits again: the handle is in an assignment of ours to keep;
    --fix leaves the file and says why, per site."""
    reason = ("the task is stored in an attribute that its own coroutine clears: keep it in a set "
              "as well, or clear the attribute as the coroutine's last step")
    assert _left_as_it_is(tmp_path, "trf001_clears_itself.py") == [
        f"trf001_clears_itself.py:{line}:{col}: not fixed TRF001: {reason}"
        for line, col in ((18, 28), (54, 35))
    ]


def test_a_function_handed_to_the_loop_as_a_callback_is_listed_as_not_fixed(tmp_path: Path) -> None:
    """A function of the file handed to call_soon() and the like returns a task the
    loop drops: there is no statement of ours to keep it in, and --fix says so per
    site, leaving the file as it is."""
    reason = "the spawner itself is passed on as a callback: no statement to extend"
    assert _left_as_it_is(tmp_path, "trf001_later_callbacks.py") == [
        f"trf001_later_callbacks.py:{line}:{col}: not fixed TRF001: {reason}"
        for line, col in ((48, 40), (54, 37), (55, 53), (68, 20))
    ]


def test_a_function_handed_to_a_reader_or_a_done_callback_is_listed_as_not_fixed(tmp_path: Path) -> None:
    """The same for add_reader(), add_writer(), add_signal_handler() and a future's
    add_done_callback(): each site listed, the file left as it is."""
    reason = "the spawner itself is passed on as a callback: no statement to extend"
    assert _left_as_it_is(tmp_path, "trf001_handed_callbacks.py") == [
        f"trf001_handed_callbacks.py:{line}:{col}: not fixed TRF001: {reason}"
        for line, col in ((67, 32), (73, 41), (74, 41), (75, 54), (84, 28))
    ]


def test_a_helper_returning_another_helpers_list_is_left_with_its_reason(tmp_path: Path) -> None:
    """A helper that returns what another helper returns, a list of new tasks
    (``return spawn_all(coros)``), of the same module or of another: the same
    (a new find of this session: the message said "task", and --fix wrote
    ``_background_tasks.add(relay(hs))``, which raises TypeError when it runs)."""
    (tmp_path / "pyproject.toml").write_text("", encoding="utf-8")
    package = tmp_path / "app"
    package.mkdir()
    (package / "__init__.py").write_text("", encoding="utf-8")
    (package / "spawning.py").write_text(
        "import asyncio\n\n\ndef spawn_all(hs):\n    return [asyncio.create_task(h()) for h in hs]\n"
        "\n\ndef relay(hs):\n    return spawn_all(hs)\n", encoding="utf-8")
    source = package / "use.py"
    text = ("from app.spawning import relay, spawn_all\n\n\ndef local_relay(hs):\n    return spawn_all(hs)\n"
            "\n\ndef caller(hs):\n    relay(hs)\n    local_relay(hs)\n")
    source.write_text(text, encoding="utf-8")
    proc = command("--fix", "--no-cache", "app/use.py", cwd=tmp_path)
    assert proc.returncode == 1, proc.stderr
    assert source.read_text(encoding="utf-8") == text
    assert "list of tasks returned by relay() (app/spawning.py:8)" in proc.stdout, proc.stdout
    assert "list of tasks returned by local_relay()" in proc.stdout, proc.stdout
    left = [row for row in proc.stderr.splitlines() if ": not fixed " in row]
    assert [row.split(": not fixed ")[0].rsplit(":", 2)[-2:] for row in left] == [["9", "5"], ["10", "5"]]
    assert all("the call returns a list of tasks: keep each of them" in row for row in left), proc.stderr


def test_a_list_of_tasks_is_left_with_its_reason(tmp_path: Path) -> None:
    """A helper that returns a list of new tasks: the set the fix would keep it in
    cannot hold a list (``set.add(list)`` raises TypeError), so --fix leaves the
    site and says how to keep each task (a review's find: it wrote that add)."""
    source = tmp_path / "lists.py"
    text = ("import asyncio\n\n\ndef spawn_all(hs):\n    return [asyncio.create_task(h()) for h in hs]\n"
            "\n\ndef caller(hs):\n    spawn_all(hs)\n    tasks = spawn_all(hs)\n    print(len(hs))\n")
    source.write_text(text, encoding="utf-8")
    proc = _fix(source)
    assert proc.returncode == 1, proc.stderr
    assert source.read_text(encoding="utf-8") == text
    reason = "the call returns a list of tasks: keep each of them"
    left = [row for row in proc.stderr.splitlines() if ": not fixed " in row]
    assert [row.split(": not fixed ")[0].rsplit(":", 2)[-2:] for row in left] == [["9", "5"], ["10", "13"]]
    assert all(reason in row for row in left), proc.stderr
