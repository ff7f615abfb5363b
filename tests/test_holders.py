"""The workers of a cold index check the files they parsed (issue 31): the
command's findings and fixes are those of a run in one process, no file is
parsed twice, and a worker that dies (in the index or in its checks) loses
nothing.  The index goes to workers from 2,000 files on; here from two."""
from __future__ import annotations

import ast
import hashlib
import os
import shutil
from pathlib import Path
from typing import Any, Dict, List, Sequence

import pytest

from tests.harness import _FORMAT, parse_output
from tests.test_projects import CASES, PROJECTS, Rows, _command, _relative


def _in_process(
    project: Path, args: Sequence[str], monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str],
    notes: bool = False,
) -> "tuple[int, Rows]":
    """The command in this process (its workers forked from it, with what
    the test patched), its index in workers from two files on."""
    from flake8_taskref.command.cli import main
    from flake8_taskref.project import view

    monkeypatch.chdir(project)
    monkeypatch.setattr(view, "_FILES_PER_WORKER", 1)
    view.forget_all()
    try:
        code = main([*args, "-j", "2", "--format", _FORMAT, "."])
    finally:
        view._VIEWS.clear()
    out, err = capfd.readouterr()
    assert ("fixed " in err) if notes else (err == ""), err
    rows = _relative(parse_output(out))
    return code, {path: [row for row in found if row[2].startswith("TRF")] for path, found in rows.items()
                  if any(row[2].startswith("TRF") for row in found)}


class _Given:
    """The files the main process gives the holders to check."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        from flake8_taskref.project import holders

        self.paths: List[str] = []
        start = holders.Holders.start

        def counted(this: Any, work: Any, settings: Any) -> None:
            self.paths += [path for holder in this._holders for path in holder.paths]
            start(this, work, settings)

        monkeypatch.setattr(holders.Holders, "start", counted)


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_index_workers_check_the_files_they_parsed(
    name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str],
) -> None:
    """Same lines as a run in one process; the files that name a spawner are
    checked by the worker that parsed them, with its tree: the check's own
    parse is never called for them (it writes the file it would parse)."""
    from flake8_taskref.project import check

    project = tmp_path / name
    shutil.copytree(PROJECTS / name, project)
    args = CASES[name]
    reference = _command(project, *args, "--no-cache", "-j", "1", ".")
    parsed = tmp_path / "parsed.txt"
    real_parse = ast.parse

    def noted(source: Any, *more: Any, **options: Any) -> ast.AST:
        with open(parsed, "a", encoding="utf-8") as out:
            out.write(hashlib.sha256(source.encode("utf-8")).hexdigest() + "\n")
        tree: ast.AST = real_parse(source, *more, **options)
        return tree

    class _Ast:
        def __getattr__(self, name: str) -> Any:
            return noted if name == "parse" else getattr(ast, name)

    monkeypatch.setattr(check, "ast", _Ast())
    given = _Given(monkeypatch)
    code, rows = _in_process(project, (*args, "--no-cache"), monkeypatch, capfd)
    assert code == (1 if reference else 0)
    assert rows == reference
    # (excluded_helpers: the one file checked names only the project's spawners,
    # hot from the index's second round on, which the main process makes)
    assert bool(given.paths) == (name != "excluded_helpers"), given.paths
    held = {os.path.normpath(path) for path in given.paths}
    again = parsed.read_text(encoding="utf-8").split() if parsed.exists() else []
    # (a file that does not parse is parsed for its E999 where it is checked)
    twice = [path for path in held if path != "app/broken.py"
             and hashlib.sha256((project / path).read_bytes()).hexdigest() in again]
    assert not twice, f"parsed again: {twice}"


def test_a_worker_that_dies_gives_its_files_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str],
) -> None:
    """A worker of the index that dies before its checks, or while it reads
    its share of the index: the same findings, no internal error."""
    from flake8_taskref.project import holders

    project = tmp_path / "service_app"
    shutil.copytree(PROJECTS / "service_app", project)
    reference = _command(project, "--isolated", "--no-cache", "-j", "1", ".")

    def dies(*args: Any, **kwargs: Any) -> Any:
        os._exit(3)

    given = _Given(monkeypatch)
    with monkeypatch.context() as patch:
        patch.setattr(holders, "_take_over", dies)
        assert _in_process(project, ("--isolated", "--no-cache"), monkeypatch, capfd) == (1, reference)
    assert given.paths
    monkeypatch.setattr(holders, "_index_batch", dies)
    given.paths.clear()
    assert _in_process(project, ("--isolated", "--no-cache"), monkeypatch, capfd) == (1, reference)
    assert not given.paths  # (nothing held: the main process read the index)


def test_the_index_workers_fix_as_one_process_does(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str],
) -> None:
    """--fix through the workers that hold the files: the same bytes written,
    by the main process, as a run in one process writes."""
    from tests.test_fix import command

    files: Dict[str, bytes] = {}
    for jobs in ("1", "2"):
        project = tmp_path / jobs / "service_app"
        shutil.copytree(PROJECTS / "service_app", project)
        if jobs == "1":
            proc = command("--isolated", "--no-cache", "-j", "1", "--fix", ".", cwd=project)
            assert proc.returncode in (0, 1) and "fixed " in proc.stderr, proc.stderr
        else:
            given = _Given(monkeypatch)
            _in_process(project, ("--isolated", "--no-cache", "--fix"), monkeypatch, capfd, notes=True)
            assert given.paths
        written = {str(path.relative_to(project)): path.read_bytes() for path in project.rglob("*.py")}
        if files:
            assert written == files
            assert written != {str(p.relative_to(PROJECTS / "service_app")): p.read_bytes()
                               for p in (PROJECTS / "service_app").rglob("*.py")}
        files = written


def test_the_index_lock_is_free_while_the_workers_check(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str],
) -> None:
    """The workers were forked while the main process held the cache's index
    lock; once the index is done another run may take it, though they live on."""
    import fcntl

    from flake8_taskref.project import holders

    project = tmp_path / "service_app"
    shutil.copytree(PROJECTS / "service_app", project)
    seen = tmp_path / "seen.txt"
    take_over = holders._take_over

    def probing(view: Any, *args: Any) -> None:
        lock = os.path.join(view.cache.folder, "index.lock")
        fd = os.open(lock, os.O_RDWR)
        try:
            fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)  # (shared: the two workers probe at once)
            state = "free"
        except OSError:
            state = "held"
        finally:
            os.close(fd)
        with open(seen, "a", encoding="utf-8") as out:
            out.write(state + "\n")
        take_over(view, *args)

    monkeypatch.setattr(holders, "_take_over", probing)
    _in_process(project, ("--isolated",), monkeypatch, capfd)
    assert seen.read_text(encoding="utf-8").split() == ["free", "free"]


@pytest.mark.parametrize("name", ["method_words", "service_app"])
def test_a_worker_checks_with_the_summaries_the_main_process_has(
    name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str],
) -> None:
    """Each worker's summaries, when its checks begin, are the main
    process's (those the index's later rounds made again with the project's
    words, or dropped, included), and so are its words."""
    import json

    from flake8_taskref.project import holders

    project = tmp_path / name
    shutil.copytree(PROJECTS / name, project)
    dumps = tmp_path / "summaries"
    dumps.mkdir()
    take_over, start = holders._take_over, holders.Holders.start

    def state(view: Any) -> Dict[str, Any]:
        return {"words": sorted(view._words), "wholes": sorted(view._wholes),
                "summaries": {path: view.digest_of(made) for path, made in view._summaries.items()}}

    def dumped(view: Any, *args: Any) -> None:
        take_over(view, *args)
        (dumps / f"{os.getpid()}.json").write_text(json.dumps(state(view)), encoding="utf-8")

    mains: List[Dict[str, Any]] = []

    def started(this: Any, work: Any, settings: Any) -> None:
        mains.append(state(this._view))
        start(this, work, settings)

    monkeypatch.setattr(holders, "_take_over", dumped)
    monkeypatch.setattr(holders.Holders, "start", started)
    _in_process(project, ("--isolated", "--no-cache"), monkeypatch, capfd)
    seen = [json.loads(path.read_text(encoding="utf-8")) for path in dumps.iterdir()]
    assert len(mains) == 1 and seen and all(each == mains[0] for each in seen)
    if name == "method_words":
        assert mains[0]["words"]


@pytest.mark.parametrize("kind", ["holders", "check workers"])
def test_workers_end_when_the_main_process_is_killed(kind: str, tmp_path: Path) -> None:
    """A main process killed outright (SIGKILL, the OOM killer: no ``finally``
    runs) leaves no worker behind: each closed the main process's end of its
    pipe, so it sees the pipe end and stops waiting."""
    import multiprocessing
    import time

    pids = tmp_path / "pids.txt"

    def main_process() -> None:
        context = multiprocessing.get_context("fork")
        if kind == "holders":
            from flake8_taskref.project.holders import Holders

            made: Any = Holders(context, 2, None)  # type: ignore[arg-type]
            processes = [holder.process for holder in made._holders]
        else:
            from flake8_taskref.command.workers import Pool

            made = Pool(None)  # type: ignore[arg-type]
            made.grow(2)
            processes = [worker.process for worker in made.workers]
        pids.write_text(" ".join(str(p.pid) for p in processes), encoding="utf-8")
        os.kill(os.getpid(), 9)

    main = multiprocessing.get_context("fork").Process(target=main_process)
    main.start()
    main.join(30)
    assert main.exitcode == -9
    left = [int(pid) for pid in pids.read_text(encoding="utf-8").split()]
    assert len(left) == 2
    deadline = time.monotonic() + 20
    while left and time.monotonic() < deadline:
        left = [pid for pid in left if _alive(pid)]
        time.sleep(0.05)
    for pid in left:  # (cleaned up before the test fails)
        os.kill(pid, 9)
    assert not left, "a worker outlived the main process"


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # an orphan that ended is reaped by init; a zombie of ours is gone too
    try:
        with open(f"/proc/{pid}/stat", encoding="utf-8") as stat:
            return stat.read().split(") ")[1][0] != "Z"
    except FileNotFoundError:
        return False
