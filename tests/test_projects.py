"""Projects of several modules (``tests/data/projects/*``): what needs another
module of the project to be seen (spawner helpers of a utility module,
re-exports, inherited spawning methods and loop attributes, methods of typed
receivers, coroutine methods shielded, helpers across an import cycle, asyncio
names under a compatibility module's name, helpers in folders the project
excludes), each with its keeping twin, and
what must stay silent (a task on some paths only, a name bound twice, a module
that does not parse, dynamic classes, a base outside the project).

Every file's ``# error:`` markers are checked through the installed flake8
(also with ``-j 2`` and through standard input with ``--stdin-display-name``)
and through the command; both faces print the same lines, whatever the cache
holds (none, cold, warm) and whatever order the files are named in.  The cache
is kept up to date (a changed helper re-checks the files that use it), is safe
with concurrent runs, and a read-only tree is checked all the same."""
from __future__ import annotations

import os
import random
import shutil
import stat
import subprocess
import sys
from pathlib import Path
from typing import Dict, List, Sequence, Tuple

import pytest

from tests.harness import _FORMAT, DATA, compare, expected, parse_output
from tests.test_fix import command

PROJECTS = DATA / "projects"
# (project, extra arguments: none means --isolated from the project's folder)
CASES: Dict[str, Tuple[str, ...]] = {
    "service_app": ("--isolated",),
    "src_layout": ("--isolated",),
    "star_exports": ("--isolated",),
    "configured_roots": ("--config", "setup.cfg"),
    "excluded_helpers": ("--config", "setup.cfg"),
    "names_app": ("--isolated",),
    "method_words": ("--isolated",),
    "mapping_values": ("--isolated",),
    "ensure_helpers": ("--isolated",),
    "quiet_entries": ("--isolated",),
}
Rows = Dict[str, List[Tuple[int, int, str, str]]]


def _files(project: Path) -> List[Path]:
    return sorted(project.rglob("*.py"))


def _flake8(cwd: Path, *args: str, stdin: "str | None" = None) -> Rows:
    proc = subprocess.run(
        [sys.executable, "-m", "flake8", "--select", "TRF", "--format", _FORMAT, *args],
        input=stdin, capture_output=True, text=True, cwd=cwd, timeout=300,
    )
    assert proc.returncode in (0, 1), proc.stderr
    assert "Traceback" not in proc.stderr, proc.stderr
    return _relative(parse_output(proc.stdout))


def _command(cwd: Path, *args: str) -> Rows:
    proc = command("--format", _FORMAT, *args, cwd=cwd)
    assert proc.returncode in (0, 1), proc.stderr
    assert "Traceback" not in proc.stderr and "internal error" not in proc.stderr, proc.stderr
    rows = _relative(parse_output(proc.stdout))
    # the command's E999 of a module that does not parse (flake8 --select TRF hides it)
    return {path: [row for row in found if row[2].startswith("TRF")] for path, found in rows.items()
            if any(row[2].startswith("TRF") for row in found)}


def _relative(rows: Rows) -> Rows:
    return {os.path.normpath(path): found for path, found in rows.items()}


def _check(project: Path, rows: Rows) -> None:
    marked = [path for path in _files(project) if expected(path)]
    assert marked, project
    for path in _files(project):
        compare(path, rows.get(str(path.relative_to(project)), []))


def _copy(name: str, tmp_path: Path) -> Path:
    target = tmp_path / name
    shutil.copytree(PROJECTS / name, target)
    return target


@pytest.mark.parametrize("name", sorted(CASES))
def test_markers_through_flake8_and_the_command(name: str, tmp_path: Path) -> None:
    project = _copy(name, tmp_path)
    args = CASES[name]
    cold = _flake8(project, *args, ".")
    _check(PROJECTS / name, cold)
    assert (project / ".taskref_cache" / ".gitignore").read_text(encoding="utf-8").splitlines()[-1] == "*"
    assert (project / ".taskref_cache" / "CACHEDIR.TAG").is_file()
    assert _flake8(project, *args, ".") == cold  # warm
    assert _flake8(project, *args, "-j", "2", ".") == cold
    assert _flake8(project, *args, "--taskref-no-cache", ".") == cold
    assert _command(project, *args, ".") == cold
    assert _command(project, *args, "-j", "2", "--no-cache", ".") == cold
    shutil.rmtree(project / ".taskref_cache")
    assert _command(project, *args, ".") == cold  # the command first, cold
    assert _flake8(project, *args, ".") == cold  # flake8 on the command's cache


@pytest.mark.parametrize("name", sorted(CASES))
def test_standard_input_resolves_from_the_display_name(name: str, tmp_path: Path) -> None:
    project = _copy(name, tmp_path)
    for path in _files(project):
        if not expected(path):
            continue
        shown = str(path.relative_to(project))
        rows = _flake8(project, *CASES[name], "--stdin-display-name", shown, "-",
                       stdin=path.read_text(encoding="utf-8"))
        compare(path, rows.get(shown, []))


def test_the_order_of_the_files_changes_nothing(tmp_path: Path) -> None:
    """Cold caches, the files named in shuffled orders, one at a time too."""
    project = _copy("service_app", tmp_path)
    names = [str(path.relative_to(project)) for path in _files(project)]
    reference = _flake8(project, "--isolated", "--taskref-no-cache", ".")
    rnd = random.Random(4)
    for _ in range(3):
        shutil.rmtree(project / ".taskref_cache", ignore_errors=True)
        rnd.shuffle(names)
        assert _flake8(project, "--isolated", *names) == reference
        assert _command(project, "--isolated", *reversed(names)) == reference
    shutil.rmtree(project / ".taskref_cache", ignore_errors=True)
    one_by_one: Rows = {}
    for name in names:  # each file alone, each time the cache a little warmer
        one_by_one.update(_flake8(project, "--isolated", name))
    assert one_by_one == reference


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new), encoding="utf-8")


def test_a_changed_helper_rechecks_the_files_that_use_it(tmp_path: Path) -> None:
    project = _copy("service_app", tmp_path)
    before = _flake8(project, "--isolated", ".")
    assert any("spawn_logged()" in row[3] for row in before["app/service.py"])
    # the helper now keeps its task: every finding through it goes, on a warm cache
    _edit(project / "app" / "util.py", "    task.add_done_callback(_log_failure)\n    return task",
          "    task.add_done_callback(_log_failure)\n    keep_task(task)\n    return task")
    after = _flake8(project, "--isolated", ".")
    assert after == _flake8(project, "--isolated", "--taskref-no-cache", ".")
    gone = ("spawn_logged()", "start_background()", "util.spawn_logged()", "util_module.relay()")
    assert not any(row[3].startswith(tuple(f"task returned by {call}" for call in gone))
                   for row in after["app/service.py"])
    # (and ``ensure_future(util.spawn_logged(...))``: of a kept task, returned unchanged)
    assert len(after["app/service.py"]) == len(before["app/service.py"]) - 7
    assert _command(project, "--isolated", ".") == after
    # a module that appears where an import found nothing is seen too
    (project / "app" / "late.py").write_text(
        "import asyncio\n\n\ndef spawn(coro):\n    return asyncio.create_task(coro)\n", encoding="utf-8")
    (project / "app" / "uses_late.py").write_text(
        "from app.late import spawn\n\n\nasync def go(job):\n    spawn(job())\n", encoding="utf-8")
    rows = _flake8(project, "--isolated", ".")
    assert [row[:3] for row in rows["app/uses_late.py"]] == [(5, 5, "TRF001")]
    (project / "app" / "late.py").unlink()
    assert "app/uses_late.py" not in _flake8(project, "--isolated", ".")


def test_a_helper_that_becomes_a_spawner_rechecks_a_file_that_spawns_already(tmp_path: Path) -> None:
    """A call of a name that is no spawner of the project is not looked up: the
    cached findings of a file that spawns elsewhere (so it was checked) must not
    outlive the project's words."""
    project = tmp_path / "words"
    (project / "app").mkdir(parents=True)
    (project / "app" / "__init__.py").write_text("")
    (project / "app" / "util.py").write_text("def foo(coro):\n    return None\n")
    (project / "app" / "main.py").write_text(
        "import asyncio\n\nfrom app.util import foo\n\n\nasync def job():\n    pass\n\n\n"
        "def f():\n    foo(job())\n\n\nasync def g():\n    await asyncio.create_task(job())\n")
    assert _command(project, "--isolated", ".") == {}
    assert _flake8(project, "--isolated", ".") == {}
    (project / "app" / "util.py").write_text(
        "import asyncio\n\n\ndef foo(coro):\n    return asyncio.create_task(coro)\n")
    message = ("task returned by foo() (app/util.py:4) is not stored; "
               "keep a reference (e.g. a set with add_done_callback(set.discard))")
    expected_rows = {"app/main.py": [(11, 5, "TRF001", message)]}
    assert _command(project, "--isolated", ".") == expected_rows
    assert _flake8(project, "--isolated", ".") == expected_rows


def test_an_index_read_by_worker_processes_finds_the_same(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str],
) -> None:
    """A cold index of many files is read in forked workers (here: from two
    files on), and the modules that name the project's words found in its
    first round are summarised in workers too (here: from two modules on); the
    workers end quietly, and the findings are the same."""
    from flake8_taskref.command.cli import main
    from flake8_taskref.project import view

    project = _copy("service_app", tmp_path)
    reference = _command(project, "--isolated", "--no-cache", ".")
    monkeypatch.chdir(project)
    monkeypatch.setattr(view, "_FILES_PER_WORKER", 1)
    monkeypatch.setattr(view, "_SUMMARIES_PER_WORKER", 1)
    rounds: List[int] = []
    in_workers = view.ProjectView._summarise_in_workers

    def counted(self: view.ProjectView, paths: List[str], jobs: int) -> None:
        rounds.append(len(paths))
        in_workers(self, paths, jobs)

    monkeypatch.setattr(view.ProjectView, "_summarise_in_workers", counted)
    view.forget_all()
    try:
        code = main(["--isolated", "-j", "2", "--format", _FORMAT, "."])
    finally:
        view.forget_all()
    out, err = capfd.readouterr()
    assert (code, err) == (1, "")
    rows = _relative(parse_output(out))
    # the command's E999 of the module that does not parse (its column is the parser's, by Python)
    assert [(row[0], row[2]) for row in rows.pop("app/broken.py")] == [(9, "E999")]
    assert rows == reference
    assert rounds and rounds[0] >= 2  # a round's summaries made in two workers
    assert _command(project, "--isolated", ".") == reference  # the workers' cache


def test_a_read_only_tree_is_checked_without_a_cache(tmp_path: Path) -> None:
    """A tree nobody may write (as root: run without root's override of file
    permissions) is checked as any other, and no cache appears in it."""
    prefix: List[str] = []
    if os.geteuid() == 0:
        if shutil.which("setpriv") is None:
            pytest.skip("root writes anywhere: needs setpriv to drop root's override")
        prefix = ["setpriv", "--bounding-set", "-dac_override,-dac_read_search"]
    project = _copy("service_app", tmp_path)
    reference = _flake8(project, "--isolated", "--taskref-no-cache", ".")
    script = shutil.which("flake8-taskref", path=os.path.dirname(sys.executable))
    assert script is not None
    for folder, _, files in os.walk(project):
        for name in files:
            os.chmod(os.path.join(folder, name), 0o444)
        os.chmod(folder, 0o555)
    try:
        runs = [
            [*prefix, sys.executable, "-m", "flake8", "--isolated", "--select", "TRF", "--format", _FORMAT,
             "."],
            [*prefix, script, "--isolated", "--format", _FORMAT, "."],
        ]
        for argv in runs:
            proc = subprocess.run(argv, cwd=project, capture_output=True, text=True, timeout=300)
            assert proc.returncode == 1 and "Traceback" not in proc.stderr, proc.stderr
            rows = _relative(parse_output(proc.stdout))
            assert {p: [r for r in found if r[2].startswith("TRF")] for p, found in rows.items()
                    if any(r[2].startswith("TRF") for r in found)} == reference
        assert not (project / ".taskref_cache").exists()
    finally:
        for folder, _, _ in os.walk(project):
            os.chmod(folder, 0o755)


def test_a_cache_that_cannot_be_written_changes_nothing(tmp_path: Path) -> None:
    """As root (CI), a read-only folder is still writable: a cache folder that
    is a file stands for a cache that cannot be written."""
    project = _copy("service_app", tmp_path)
    reference = _flake8(project, "--isolated", "--taskref-no-cache", ".")
    (project / ".taskref_cache").write_text("not a folder", encoding="utf-8")
    assert _flake8(project, "--isolated", ".") == reference
    assert _command(project, "--isolated", ".") == reference
    assert (project / ".taskref_cache").read_text(encoding="utf-8") == "not a folder"
    elsewhere = tmp_path / "cache elsewhere"
    assert _command(project, "--isolated", "--cache-dir", str(elsewhere), ".") == reference
    assert _flake8(project, "--isolated", "--taskref-cache-dir", str(elsewhere), ".") == reference
    assert (elsewhere / ".gitignore").is_file()


def test_concurrent_runs_share_the_cache(tmp_path: Path) -> None:
    """flake8 -j 2, the command and flake8 again at once, on a cold cache, three
    times: every run prints the same, and the cache holds no half-written entry
    (the last run reads it)."""
    project = _copy("service_app", tmp_path)
    reference = _flake8(project, "--isolated", "--taskref-no-cache", ".")
    script = shutil.which("flake8-taskref", path=os.path.dirname(sys.executable))
    assert script is not None
    for _ in range(3):
        shutil.rmtree(project / ".taskref_cache", ignore_errors=True)
        runs = [
            subprocess.Popen([sys.executable, "-m", "flake8", "--isolated", "--select", "TRF", "--format",
                              _FORMAT, "-j", "2", "."], cwd=project, stdout=subprocess.PIPE, text=True),
            subprocess.Popen([script, "--isolated", "--format", _FORMAT, "."], cwd=project,
                             stdout=subprocess.PIPE, text=True),
            subprocess.Popen([sys.executable, "-m", "flake8", "--isolated", "--select", "TRF", "--format",
                              _FORMAT, "."], cwd=project, stdout=subprocess.PIPE, text=True),
        ]
        outputs = [run.communicate(timeout=300)[0] for run in runs]
        for output in outputs:
            rows = _relative(parse_output(output))
            rows = {p: [r for r in found if r[2].startswith("TRF")] for p, found in rows.items()
                    if any(r[2].startswith("TRF") for r in found)}
            assert rows == reference
    assert _flake8(project, "--isolated", ".") == reference
    leftovers = [p for p in (project / ".taskref_cache").rglob(".tmp-*")]
    assert leftovers == []


def test_messages_name_where_the_callee_is_defined(tmp_path: Path) -> None:
    project = _copy("service_app", tmp_path)
    texts = {row[0]: row[3] for row in _flake8(project, "--isolated", ".")["app/service.py"]}
    assert texts[23].startswith("task returned by spawn_logged() (app/util.py:15) is not stored; keep")
    assert texts[31].startswith(
        "list of tasks returned by self._bus.dispatch() (app/bus.py:10) is not stored")
    assert texts[35].startswith(
        "asyncio.shield() of coroutine self._worker.cancel_group() (app/workers.py:13; it is wrapped in "
        "a new task) keeps no reference")
    assert texts[38].startswith(
        "task returned by spawn_logged() (app/util.py:15) is held only by local 'task', which is never "
        "awaited")


def _sarif_related(project: Path) -> List[Sequence[object]]:
    import json

    proc = command("--isolated", "--format", "sarif", ".", cwd=project)
    report = json.loads(proc.stdout)
    found = []
    for result in report["runs"][0]["results"]:
        for related in result.get("relatedLocations", []):
            place = related["physicalLocation"]
            found.append((result["locations"][0]["physicalLocation"]["region"]["startLine"],
                          place["artifactLocation"]["uri"], place["region"]["startLine"]))
    return found


def test_sarif_gives_the_callee_as_a_related_location(tmp_path: Path) -> None:
    project = _copy("service_app", tmp_path)
    related = _sarif_related(project)
    assert (23, "app/util.py", 15) in related
    assert (35, "app/workers.py", 13) in related
    assert (31, "app/bus.py", 10) in related


def test_the_fix_keeps_the_tasks_of_other_modules_spawners(tmp_path: Path) -> None:
    project = _copy("service_app", tmp_path)
    proc = command("--isolated", "--fix", "app/service.py", cwd=project)
    assert proc.returncode in (0, 1), proc.stderr
    fixed = [row for row in proc.stderr.splitlines() if ": fixed TRF00" in row]
    assert any(row.startswith("app/service.py:23:9: fixed TRF001") for row in fixed), proc.stderr
    assert any(row.startswith("app/service.py:38:16: fixed TRF002") for row in fixed), proc.stderr
    # what the analysis tells the fixer to leave: a task or None, and what ``await`` gives
    some_paths = "the call returns a new task on some paths only (None or nothing on others)"
    awaited = "the task is what 'await' of the call returns"
    assert f"app/service.py:73:11: not fixed TRF001: {some_paths}" in proc.stderr, proc.stderr
    assert f"app/service.py:74:11: not fixed TRF001: {awaited}" in proc.stderr, proc.stderr
    assert f"app/service.py:75:5: not fixed TRF001: {some_paths}" in proc.stderr, proc.stderr
    # a list of tasks: a set cannot hold it (the fix once wrote ``set.add(list)``)
    tasks = "the call returns a list of tasks: keep each of them"
    assert f"app/service.py:31:9: not fixed TRF001: {tasks}" in proc.stderr, proc.stderr
    left = _flake8(project, "--isolated", ".").get("app/service.py", [])
    # the four sites it leaves, moved down by the lines the fix wrote above them
    assert [row[:3] for row in left if row[2] in ("TRF001", "TRF002")] == [
        (57, 9, "TRF001"), (105, 11, "TRF001"), (106, 11, "TRF001"), (107, 5, "TRF001")], left
    compile((project / "app" / "service.py").read_bytes(), "service.py", "exec")
    again = command("--isolated", "--fix", "app/service.py", cwd=project)
    assert again.stderr.splitlines()[-1].startswith("fixed 0 of"), again.stderr


def test_what_the_fixer_must_leave_is_kept_in_the_cache(tmp_path: Path) -> None:
    """The reason the analysis gives the fixer for a site it must leave comes
    from the cache's findings on a warm run as from the analysis on a cold one."""
    project = _copy("service_app", tmp_path)
    cold = command("--isolated", "--diff", "app/service.py", cwd=project)
    assert (project / ".taskref_cache").is_dir()
    warm = command("--isolated", "--diff", "app/service.py", cwd=project)
    left = [row for row in cold.stderr.splitlines() if "not fixed TRF001" in row]
    assert [row.split(": not fixed")[0] for row in left] == [
        "app/service.py:31:9", "app/service.py:73:11", "app/service.py:74:11",
        "app/service.py:75:5"], cold.stderr
    assert [row for row in warm.stderr.splitlines() if "not fixed TRF001" in row] == left
    assert warm.stdout == cold.stdout


def test_read_only_files_are_never_written(tmp_path: Path) -> None:
    """The cache is beside the project: the project's own files are untouched."""
    project = _copy("service_app", tmp_path)
    before = {path: path.read_bytes() for path in _files(project)}
    modes = {path: stat.S_IMODE(path.stat().st_mode) for path in _files(project)}
    _flake8(project, "--isolated", ".")
    _command(project, "--isolated", ".")
    assert {path: path.read_bytes() for path in _files(project)} == before
    assert {path: stat.S_IMODE(path.stat().st_mode) for path in _files(project)} == modes


def _write(root: Path, files: Dict[str, str]) -> Path:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root


_UTIL = "import asyncio\n\n\ndef spawn(coro):\n    return asyncio.get_running_loop().create_task(coro)\n"
_USER = ("import asyncio\n\nfrom app import many\n\n\nasync def job():\n    await asyncio.sleep(1)\n\n\n"
         "def go():\n    many.spawn(job())\n")


def test_a_warm_run_sees_a_spawner_through_a_helper_that_names_only_a_project_word(tmp_path: Path) -> None:
    """``many.spawn`` names one of asyncio's spawners, and returns ``_start()``,
    which names only the project's word ``spawn``: its summary in part is made
    with the words its module names, cold and warm (a warm run once took the
    summary made with no word known, and lost the finding)."""
    project = _write(tmp_path / "stale", {
        "app/__init__.py": "", "app/util.py": _UTIL, "app/user.py": _USER,
        "app/many.py": ("import asyncio\n\nfrom app import util\n\n\ndef _start(coro):\n"
                        "    return util.spawn(coro)\n\n\ndef spawn(coro):\n"
                        "    asyncio.ensure_future  # (named)\n    return _start(coro)\n"),
    })
    expected_rows = [(11, 5, "TRF001")]
    for _ in range(3):  # cold, warm, warm
        assert [row[:3] for row in _command(project, "--isolated", ".")["app/user.py"]] == expected_rows
    assert [row[:3] for row in _flake8(project, "--isolated", ".")["app/user.py"]] == expected_rows
    assert _command(project, "--isolated", "--no-cache", ".") == _command(project, "--isolated", ".")


def test_a_helper_in_an_excluded_module_is_the_same_cold_and_warm(tmp_path: Path) -> None:
    """A module the walk leaves out (excluded) but an import finds is
    summarised during the index; when a later round finds words it names, its
    summary is made again with them (it once kept the first one, and a warm run
    differed from a cold one)."""
    project = _write(tmp_path / "excluded", {
        "app/__init__.py": "", "app/util.py": _UTIL, "app/user.py": _USER,
        "app/many.py": ("import asyncio\n\nfrom app import util\n\n\ndef _start(coro):\n"
                        "    return util.spawn(coro)\n\n\ndef spawn(coro):\n"
                        "    asyncio.ensure_future  # (named)\n    return _start(coro)\n"),
        "app/mid.py": ("import asyncio\n\nfrom app.many import spawn\n\n\ndef relay(coro):\n"
                       "    asyncio.ensure_future  # (named)\n    return spawn(coro)\n"),
    })
    args = ("--isolated", "--exclude", "app/many.py", ".")
    none = _command(project, "--isolated", "--no-cache", "--exclude", "app/many.py", ".")
    assert [row[:3] for row in none["app/user.py"]] == [(11, 5, "TRF001")]
    assert _command(project, *args) == none  # cold
    assert _command(project, *args) == none  # warm


def test_the_index_in_workers_makes_the_summaries_it_makes_alone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A summary in part is the same whether a worker of the index made it or
    the main process (they once differed on a class whose typed attribute's
    methods are called: the workers entered what the main process did not)."""
    from flake8_taskref.analysis.options import Options
    from flake8_taskref.project import view
    from flake8_taskref.project.cache import Cache

    module = ("import asyncio\n\n\nclass Worker:\n    def ping(self):\n        return 1\n\n\n"
              "class Service:\n    def __init__(self, worker: Worker) -> None:\n"
              "        self._worker = worker\n\n"
              "    def helper(self):\n        return self._worker.ping()\n\n"
              "    def go(self):\n        self._worker.ping()\n        asyncio.ensure_future(self.x())\n")
    files = {"app/__init__.py": "", "app/mod.py": module, "app/mod2.py": module}
    project = _write(tmp_path / "typed", files)
    monkeypatch.chdir(project)
    monkeypatch.setattr(view, "_FILES_PER_WORKER", 1)
    digests = []
    for jobs in (1, 2):
        made = view.ProjectView(Options.build(), ".", (), Cache(None))
        made.words(jobs)
        summary = made.summary(str(project / "app" / "mod.py"))
        assert summary is not None and summary.partial
        digests.append(made.digest_of(summary))
    assert digests[0] == digests[1]


def test_an_excluded_helper_is_followed_as_it_changes_and_appears(tmp_path: Path) -> None:
    """A helper in an excluded folder is reached from the names its importers'
    imports give, kept with the index: a warm run sees it change, and sees a
    module appear there that an unchanged file imports (issue 31, item 7)."""
    project = _copy("excluded_helpers", tmp_path)
    args = ("--config", "setup.cfg", ".")
    main = os.path.join("app", "main.py")
    before = _command(project, *args)
    assert [row[:3] for row in before[main]] == [(14, 5, "TRF001"), (15, 5, "TRF001"), (16, 5, "TRF001")]
    _edit(project / "app" / "main.py", "from tools.helpers import spawn\n",
          "from tools.helpers import spawn\nfrom tools.later import begin\n")
    _edit(project / "app" / "main.py", "    kept = spawn(work())\n",
          "    begin(work())\n    kept = spawn(work())\n")
    assert [row[:3] for row in _command(project, *args)[main]] == [
        (15, 5, "TRF001"), (16, 5, "TRF001"), (17, 5, "TRF001")]
    (project / "tools" / "later.py").write_text(
        "import asyncio\n\n\ndef begin(coro):\n    return asyncio.create_task(coro)\n", encoding="utf-8")
    expected_rows = [(15, 5, "TRF001"), (16, 5, "TRF001"), (17, 5, "TRF001"), (18, 5, "TRF001")]
    for face in (_command, _flake8):  # warm: main.py and the index unchanged but for the new module
        assert [row[:3] for row in face(project, *args)[main]] == expected_rows
    _edit(project / "tools" / "deep.py", "    return asyncio.get_running_loop().create_task(coro)\n",
          "    return coro\n")
    assert [row[:3] for row in _flake8(project, *args)[main]] == [
        (15, 5, "TRF001"), (17, 5, "TRF001"), (18, 5, "TRF001")]
    assert _command(project, *args) == _command(project, "--no-cache", *args)


def test_the_index_in_workers_reaches_excluded_helpers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The workers of a cold index give the names that point into excluded
    folders too: the same words as the index made alone."""
    from flake8_taskref.analysis.options import Options
    from flake8_taskref.project import view
    from flake8_taskref.project.cache import Cache

    project = _copy("excluded_helpers", tmp_path)
    monkeypatch.chdir(project)
    monkeypatch.setattr(view, "_FILES_PER_WORKER", 1)
    excluded = (str(project / "tools"), str(project / "app" / "vendored"))
    for jobs in (1, 2):
        made = view.ProjectView(Options.build(), ".", (), Cache(None), lambda path: path.startswith(excluded))
        assert {"spawn", "launch", "fire_and_forget"} <= made.words(jobs), jobs


_TASKS = "import asyncio\n\n\ndef start(coro):\n    return asyncio.create_task(coro)\n"
_TASKS_USER = ("from myapp.tasks import start\n\n\nasync def w():\n    pass\n\n\n"
               "async def main():\n    start(w())\n")


def _start_rows(helper: str) -> List[Tuple[int, int, str, str]]:
    """The finding, its helper's file as the message names it."""
    return [(9, 5, "TRF001", f"task returned by start() ({helper}:4) is not stored; keep a reference "
             "(e.g. a set with add_done_callback(set.discard))")]


def test_messages_name_the_helpers_file_from_the_current_folder(tmp_path: Path) -> None:
    """In a src layout the helper's file is ``src/myapp/tasks.py`` from the
    project root (a terminal opens it there), as the finding's own path is;
    from a folder below, relative to it (issue 31, low)."""
    project = _write(tmp_path / "layout", {
        "pyproject.toml": "", "src/myapp/__init__.py": "",
        "src/myapp/tasks.py": _TASKS, "src/myapp/user.py": _TASKS_USER,
    })
    user = os.path.join("src", "myapp", "user.py")
    rows = {user: _start_rows(os.path.join("src", "myapp", "tasks.py"))}
    assert _flake8(project, user) == rows
    assert _command(project, user) == rows
    assert _command(project / "src", os.path.join("myapp", "user.py")) == {
        os.path.join("myapp", "user.py"): _start_rows(os.path.join("myapp", "tasks.py"))}
    # from a folder outside the project (the editor server's may be anywhere):
    # relative to the project root
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (project / "setup.cfg").write_text("[flake8]\n", encoding="utf-8")
    assert _command(elsewhere, "--config", str(project / "setup.cfg"), str(project / user)) == {
        str(project / user): _start_rows(os.path.join("src", "myapp", "tasks.py"))}
    # from a folder outside the project that it does not know for the project's: relative
    # to the current folder, as the finding's own file (it was ``myapp/tasks.py``, which
    # no terminal there opens: a new user's report)
    given = os.path.join(os.pardir, "layout", "src")
    helper = os.path.join(os.pardir, "layout", "src", "myapp", "tasks.py")
    found = {os.path.join(given, "myapp", "user.py"): _start_rows(helper)}
    assert _command(elsewhere, given) == found
    assert _flake8(elsewhere, given) == found


def test_the_plugin_keeps_no_tree_of_the_index(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """flake8 hands each check its own tree: the trees the index parses are not
    kept for the checks in a flake8 run (kept for nothing, they made each of
    flake8's collections walk them: a quarter more CPU on a cold run of
    distributed), and the findings are the same as the command's, which keeps them."""
    import ast

    from flake8_taskref import plugin
    from flake8_taskref.project import view
    from flake8_taskref.project.settings import from_values

    files = {"app/__init__.py": "", "app/many.py": _UTIL, "app/user.py": _USER, "pyproject.toml": ""}
    project = _write(tmp_path / "p", files)
    monkeypatch.chdir(project)
    monkeypatch.setattr(view, "_VIEWS", {})
    monkeypatch.setattr(plugin.TaskRefPlugin, "project", (from_values(str(project), (), "", True, ["."]), ()))
    text = (project / "app" / "user.py").read_text()
    checker = plugin.TaskRefPlugin(ast.parse(text), text.splitlines(True), "app/user.py")
    assert [(row[0], row[1], row[2][:6]) for row in checker.run()] == [(11, 4, "TRF001")]
    (made,) = view._VIEWS.values()
    assert not made.keep_trees and made._trees == {}
    # the command's view keeps the tree of a file it parsed for a summary
    kept = view.ProjectView(plugin.TaskRefPlugin.config, str(project), (), None)
    kept.words()
    assert str(project / "app" / "many.py") in kept._trees
