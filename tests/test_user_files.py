"""The user's files under ``flake8-taskref --fix`` and ``--diff``, through the
console script: written in place (inode, owner, group, mode, hard links and
extended attributes kept), read-only files refused, edits made while fixing
kept, SIGINT/SIGTERM stop the run between whole files, files that cannot be
read (E902) or parsed (E999) are findings and the run goes on, internal errors
are one line, and ``--diff`` is bytes that ``git apply`` and ``patch -p1`` take.

Some tests load ``sitecustomize.py`` from ``HOOKS`` (through PYTHONPATH) into the
command's processes, to make a failure happen at a chosen point: a parser out
of memory, an analysis that raises, a file edited while it is being fixed.
"""
from __future__ import annotations

import ast
import errno
import json
import os
import shutil
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path
from typing import Dict, List, Optional, Sequence

import pytest

SOURCE = "import asyncio\n\n\nasync def main():\n    asyncio.create_task(asyncio.sleep(1))\n"
FIXED = (
    "import asyncio\n\n_background_tasks: \"set[asyncio.Task[object]]\" = set()\n\n\nasync def main():\n"
    "    sleep_task = asyncio.create_task(asyncio.sleep(1))\n    _background_tasks.add(sleep_task)\n"
    "    sleep_task.add_done_callback(_background_tasks.discard)\n    del sleep_task\n"
)
FINDING = ("TRF001 task returned by asyncio.create_task() is not stored; keep a reference "
           "(e.g. a set with add_done_callback(set.discard))")
SCRIPT = shutil.which("flake8-taskref", path=os.path.dirname(sys.executable))

HOOKS = '''
import ast, os, signal, time
import flake8_taskref.analysis.api as api
import flake8_taskref.fix.rewrite as rewrite

_parse = ast.parse
def parse(source, *args, **kwargs):
    if isinstance(source, str) and "# hook: MemoryError" in source:
        raise MemoryError()
    return _parse(source, *args, **kwargs)
ast.parse = parse

_analyse = api._analyse
def analyse(tree, options, hot, filename=None, *args, **kwargs):
    if filename and os.path.basename(filename).startswith("boom"):
        raise ValueError("boom")
    return _analyse(tree, options, hot, filename, *args, **kwargs)
api._analyse = analyse

_fix_source = rewrite.fix_source
def fix_source(data, sites, *options):
    if b"# hook: slow" in data:
        time.sleep(120)
    if b"# hook: killed" in data:  # as the OOM killer does
        os.kill(os.getpid(), signal.SIGKILL)
    result = _fix_source(data, sites, *options)
    if b"# hook: edit me while fixing" in data:
        with open(os.environ["TASKREF_TEST_EDIT"], "ab") as handle:
            handle.write(b"# an edit made meanwhile\\n")
    return result
rewrite.fix_source = fix_source

if os.environ.get("TASKREF_TEST_WORKERS") == "1":  # worker processes however little the work
    import flake8_taskref.command.runner as runner
    runner.FILES_PER_WORKER = runner.HOT_BYTES_PER_WORKER = 1
'''
# Set in the environment with HOOKS: the run uses worker processes (up to -j)
# even for a few small files, as it would for many.
WORKERS = {"TASKREF_TEST_WORKERS": "1"}


def run(*args: str, cwd: Path, env: Optional[Dict[str, str]] = None, hooks: Optional[Path] = None,
        prefix: Sequence[str] = (), stdin: bytes = b"", program: Optional[str] = None,
        ) -> "subprocess.CompletedProcess[bytes]":
    """The installed console script (or ``program``), as a user runs it (bytes out)."""
    assert SCRIPT is not None, "flake8-taskref is not installed beside this python"
    environment = {key: value for key, value in os.environ.items() if key != "FLAKE8_TASKREF_DEBUG"}
    environment.update(env or {})
    if hooks is not None:
        hooks.mkdir(exist_ok=True)
        (hooks / "sitecustomize.py").write_text(HOOKS)
        environment["PYTHONPATH"] = str(hooks)
    return subprocess.run([*prefix, program or SCRIPT, *args], cwd=cwd, env=environment, capture_output=True,
                          input=stdin, timeout=300)


def lines(output: bytes) -> List[str]:
    return output.decode().splitlines()


# ----------------------------------------------------------- writing in place
def test_fix_keeps_inode_owner_group_mode_and_hard_links(tmp_path: Path) -> None:
    target = tmp_path / "mod.py"
    target.write_text(SOURCE)
    link = tmp_path / "other name.py"
    os.link(target, link)
    target.chmod(0o640)
    if os.geteuid() == 0:
        os.chown(target, 12345, 23456)  # root fixing someone else's file
    before = os.stat(target)
    proc = run("--fix", "mod.py", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert lines(proc.stderr) == ["mod.py:5:5: fixed TRF001 (kept in _background_tasks)",
                                  "fixed 1 of 1 finding in 1 file"]
    after = os.stat(target)
    assert target.read_text() == FIXED
    assert (after.st_ino, after.st_dev, after.st_uid, after.st_gid, after.st_mode, after.st_nlink) == (
        before.st_ino, before.st_dev, before.st_uid, before.st_gid, before.st_mode, 2)
    if os.geteuid() == 0:
        assert (after.st_uid, after.st_gid) == (12345, 23456)
    assert link.read_text() == FIXED  # the other name sees the fix: one file still
    # (and no cache beside them: a folder with no project's file is no project)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["mod.py", "other name.py"]


def test_fix_keeps_extended_attributes(tmp_path: Path) -> None:
    target = tmp_path / "mod.py"
    target.write_text(SOURCE)
    if not hasattr(os, "setxattr"):
        pytest.skip("no extended attributes on this system")
    try:
        os.setxattr(target, "user.taskref", b"kept")
    except OSError as exc:
        if exc.errno in (errno.ENOTSUP, errno.EOPNOTSUPP):
            pytest.skip(f"the file system of {tmp_path} takes no user xattrs")
        raise
    assert run("--fix", "mod.py", cwd=tmp_path).returncode == 0
    assert target.read_text() == FIXED
    assert os.getxattr(target, "user.taskref") == b"kept"


def test_read_only_file_is_refused_even_for_root(tmp_path: Path) -> None:
    (tmp_path / "a_read_only.py").write_text(SOURCE)
    (tmp_path / "a_read_only.py").chmod(0o444)
    (tmp_path / "b.py").write_text(SOURCE)
    proc = run("--fix", ".", cwd=tmp_path)
    assert proc.returncode == 1
    assert (tmp_path / "a_read_only.py").read_text() == SOURCE
    assert stat.S_IMODE(os.stat(tmp_path / "a_read_only.py").st_mode) == 0o444
    assert (tmp_path / "b.py").read_text() == FIXED
    assert lines(proc.stdout) == [f"./a_read_only.py:5:5: {FINDING}"]
    assert lines(proc.stderr) == [
        "./a_read_only.py:5:5: not fixed TRF001: not written: the file is read-only (mode 0444)",
        "./b.py:5:5: fixed TRF001 (kept in _background_tasks)",
        "fixed 1 of 2 findings in 1 file; 1 left, see above",
    ]


def test_edits_made_while_fixing_are_kept(tmp_path: Path) -> None:
    target = tmp_path / "mod.py"
    text = "# hook: edit me while fixing\n" + SOURCE
    target.write_text(text)
    proc = run("--fix", "mod.py", cwd=tmp_path, hooks=tmp_path / "hooks",
               env={"TASKREF_TEST_EDIT": str(target)})
    assert proc.returncode == 1, proc.stderr
    assert target.read_text() == text + "# an edit made meanwhile\n"
    assert lines(proc.stderr) == [
        "mod.py:6:5: not fixed TRF001: not written: the file changed while fixing; run the fix again",
        "fixed 0 of 1 finding in 0 files; 1 left, see above",
    ]
    assert lines(proc.stdout) == [f"mod.py:6:5: {FINDING}"]


# --------------------------------------------------------------- signals
def _slow_files(folder: Path, count: int, sites: int) -> str:
    """``count`` files that each take a while to fix; returns their text."""
    text = "import asyncio\n\n\nasync def job():\n    pass\n" + "".join(
        f"\n\nasync def f{i}():\n    asyncio.create_task(job())\n" for i in range(sites))
    folder.mkdir()
    for number in range(count):
        (folder / f"m{number:02d}.py").write_text(text)
    return text


@pytest.mark.parametrize(
    "signum,group,workers",
    [(signal.SIGTERM, False, True), (signal.SIGINT, True, True), (signal.SIGINT, True, False)],
    ids=["SIGTERM to the command", "SIGINT to the process group (Ctrl-C)", "Ctrl-C, one process"])
def test_a_signal_stops_the_run_between_whole_files(
    tmp_path: Path, signum: int, group: bool, workers: bool,
) -> None:
    text = _slow_files(tmp_path / "src", 24, 150)
    reference = tmp_path / "reference.py"
    reference.write_text(text)
    assert run("--fix", "reference.py", cwd=tmp_path).returncode == 0
    fixed = reference.read_text()
    assert SCRIPT is not None
    hooks = tmp_path / "hooks"
    hooks.mkdir()
    (hooks / "sitecustomize.py").write_text(HOOKS)
    env = dict(os.environ, PYTHONPATH=str(hooks), **(WORKERS if workers else {}))
    proc = subprocess.Popen([SCRIPT, "--fix", "-j", "2", "src"], cwd=tmp_path, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL,
                            start_new_session=True)
    files = sorted((tmp_path / "src").iterdir())
    deadline = time.monotonic() + 240
    while all(f.read_text() == text for f in files) and proc.poll() is None:
        assert time.monotonic() < deadline
        time.sleep(0.005)
    if group:
        os.killpg(proc.pid, signum)
    else:
        os.kill(proc.pid, signum)
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == 128 + signum, err.decode()
    report = lines(err)
    assert "Traceback" not in err.decode() and not out
    listed = [row[len("fixed: "):] for row in report[1:]]
    assert report[0] == (f"flake8-taskref: stopped by {signal.Signals(signum).name}; "
                         f"{len(listed)} file{'s' if len(listed) != 1 else ''} fixed before it, "
                         "no other file changed")
    assert all(row.startswith("fixed: src/m") for row in report[1:]), report
    time.sleep(1)  # nothing is still writing
    changed = [f"src/{f.name}" for f in files if f.read_text() != text]
    assert sorted(listed) == changed and 1 <= len(changed) < len(files)
    for f in files:
        assert f.read_text() in (text, fixed), f  # each file whole, old or new


def test_sigterm_to_the_process_group_with_an_idle_worker(tmp_path: Path) -> None:
    """``kill -- -PGID`` (CI cancelling a job) kills the workers too, one of them
    idle: the run still stops at once (a multiprocessing pool hung there)."""
    (tmp_path / "a_slow.py").write_text("# hook: slow\n" + SOURCE)
    (tmp_path / "b.py").write_text(SOURCE)
    hooks = tmp_path / "hooks"
    hooks.mkdir()
    (hooks / "sitecustomize.py").write_text(HOOKS)
    assert SCRIPT is not None
    proc = subprocess.Popen([SCRIPT, "--fix", "-j", "2", "a_slow.py", "b.py"], cwd=tmp_path,
                            env=dict(os.environ, PYTHONPATH=str(hooks), **WORKERS), stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, stdin=subprocess.DEVNULL, start_new_session=True)
    deadline = time.monotonic() + 120
    while (tmp_path / "b.py").read_text() != FIXED:
        assert time.monotonic() < deadline and proc.poll() is None
        time.sleep(0.005)
    os.killpg(proc.pid, signal.SIGTERM)
    try:
        out, err = proc.communicate(timeout=30)
    except subprocess.TimeoutExpired:  # pragma: no cover - the failure this test is for
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()
        raise
    assert proc.returncode == 143, err
    assert lines(err) == ["flake8-taskref: stopped by SIGTERM; 1 file fixed before it, no other file changed",
                          "fixed: b.py"]
    assert (tmp_path / "a_slow.py").read_text() == "# hook: slow\n" + SOURCE


def test_a_worker_that_dies_is_an_internal_error_and_the_run_goes_on(tmp_path: Path) -> None:
    (tmp_path / "a_killed.py").write_text("# hook: killed\n" + SOURCE)
    for name in ("b.py", "c.py", "d.py"):
        (tmp_path / name).write_text(SOURCE)
    proc = run("--fix", "-j", "2", ".", cwd=tmp_path, hooks=tmp_path / "hooks", env=WORKERS)
    assert proc.returncode == 2, proc.stderr
    assert lines(proc.stderr)[0] == \
        "flake8-taskref: ./a_killed.py: internal error: the worker process died (signal SIGKILL)"
    assert all((tmp_path / name).read_text() == FIXED for name in ("b.py", "c.py", "d.py"))
    assert (tmp_path / "a_killed.py").read_text() == "# hook: killed\n" + SOURCE


# ---------------------------------------- files that cannot be read or parsed
def _deep(terms: int) -> str:
    """An expression nested ``terms`` deep (``a+a+...``), a line of its own."""
    return "x = " + "+".join(["a"] * terms) + "\n"


def test_a_file_too_deep_to_parse_or_analyse_is_one_e999_and_the_run_goes_on(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text(SOURCE)
    # the spawn and the deep expression in one function: the parser (3.11+) or the analysis fails
    (tmp_path / "deep.py").write_text(SOURCE + "    " + _deep(10000))
    (tmp_path / "z.py").write_text(SOURCE)
    for jobs in ("1", "2"):
        for name in ("a.py", "z.py"):
            (tmp_path / name).write_text(SOURCE)
        proc = run("--fix", "-j", jobs, "a.py", "deep.py", "z.py", cwd=tmp_path)
        assert proc.returncode == 1, proc.stderr
        err = proc.stderr.decode()
        assert "Traceback" not in err and "nested too deeply" not in err
        [row] = lines(proc.stdout)
        assert row.startswith("deep.py:1:1: E999 RecursionError: maximum recursion depth exceeded"), row
        assert (tmp_path / "a.py").read_text() == FIXED == (tmp_path / "z.py").read_text()
        assert lines(proc.stderr)[-1] == ("fixed 2 of 2 findings in 2 files; 1 file not checked: "
                                          "cannot be read or parsed (E902, E999), see above")


def test_a_file_too_deep_for_the_fixer_is_left_with_a_note(tmp_path: Path) -> None:
    """The analysis does not enter a function without a spawn, so it can find a
    site in a file nested too deeply for the fixer's own check (which walks the
    tree): the site is left with a note, the run goes on.  (Python 3.14 and
    later parse and compile it, and the fixer's check too: it is fixed.)"""
    text = SOURCE + "\n\ndef other():\n    " + _deep(10000) + "    return x\n"
    (tmp_path / "deep.py").write_text(text)
    (tmp_path / "z.py").write_text(SOURCE)
    proc = run("--fix", "-j", "1", "deep.py", "z.py", cwd=tmp_path)
    assert (tmp_path / "z.py").read_text() == FIXED
    if sys.version_info >= (3, 14):
        assert proc.returncode == 0, proc.stderr
        assert lines(proc.stdout) == []
        assert lines(proc.stderr) == ["deep.py:5:5: fixed TRF001 (kept in _background_tasks)",
                                      "z.py:5:5: fixed TRF001 (kept in _background_tasks)",
                                      "fixed 2 of 2 findings in 2 files"]
        fixed = (tmp_path / "deep.py").read_text()
        assert fixed.replace(FIXED, SOURCE, 1) == text  # the same fix as the shallow file's
        return
    assert proc.returncode == 1, proc.stderr
    assert (tmp_path / "deep.py").read_text() == text
    try:
        ast.parse(text)
    except RecursionError:  # Python 3.11 to 3.13: ast's own limit comes first
        assert lines(proc.stdout) == [
            "deep.py:1:1: E999 RecursionError: maximum recursion depth exceeded during ast construction"]
    else:  # Python 3.9 and 3.10: the check parses it and hands its tree to the fixer; the
        # fixed text is compiled before it is written, where the compiler's own limit comes
        assert lines(proc.stdout) == [f"deep.py:5:5: {FINDING}"]
        assert lines(proc.stderr)[0] == (
            "flake8-taskref: deep.py: the fix did not compile (maximum recursion depth exceeded "
            "during compilation); file left unchanged")


def test_out_of_memory_in_the_parser_is_one_e999(tmp_path: Path) -> None:
    (tmp_path / "big.py").write_text("# hook: MemoryError\n" + SOURCE)
    (tmp_path / "z.py").write_text(SOURCE)
    proc = run("--fix", "big.py", "z.py", cwd=tmp_path, hooks=tmp_path / "hooks")
    assert proc.returncode == 1, proc.stderr
    assert lines(proc.stdout) == ["big.py:1:1: E999 MemoryError: out of memory"]
    assert (tmp_path / "z.py").read_text() == FIXED
    assert "Traceback" not in proc.stderr.decode()


def test_an_internal_error_is_one_line_exit_2_and_the_run_goes_on(tmp_path: Path) -> None:
    (tmp_path / "boom.py").write_text(SOURCE)
    (tmp_path / "z.py").write_text(SOURCE)
    hooks = tmp_path / "hooks"
    for jobs in ("1", "2"):
        proc = run("-j", jobs, "boom.py", "z.py", cwd=tmp_path, hooks=hooks)
        assert proc.returncode == 2
        assert lines(proc.stderr) == ["flake8-taskref: boom.py: internal error: ValueError: boom "
                                      "(FLAKE8_TASKREF_DEBUG=1 shows the traceback)"]
        assert lines(proc.stdout) == [f"z.py:5:5: {FINDING}"]
    assert run("--exit-zero", "boom.py", cwd=tmp_path, hooks=hooks).returncode == 2
    debug = run("boom.py", cwd=tmp_path, hooks=hooks, env={"FLAKE8_TASKREF_DEBUG": "1"})
    err = debug.stderr.decode()
    assert debug.returncode == 2
    assert err.startswith("flake8-taskref: boom.py: internal error: ValueError: boom\n")
    assert "Traceback (most recent call last):" in err and 'raise ValueError("boom")' in err
    fixing = run("--fix", "boom.py", "z.py", cwd=tmp_path, hooks=hooks)
    assert fixing.returncode == 2 and (tmp_path / "z.py").read_text() == FIXED


def test_an_internal_error_through_flake8_is_one_line_and_the_run_goes_on(tmp_path: Path) -> None:
    """flake8 iterates a plugin's findings outside its own ``try``: an exception
    of ours stopped the whole run, every other file's and plugin's findings lost.
    Now, as Ruff does with a panic, the file gets one line on standard error and
    no TRF finding, and flake8 goes on (its own findings of that file kept)."""
    flake8 = shutil.which("flake8", path=os.path.dirname(sys.executable))
    assert flake8 is not None
    (tmp_path / "boom.py").write_text(SOURCE + "x=1\n")
    (tmp_path / "z.py").write_text(SOURCE)
    hooks = tmp_path / "hooks"
    for jobs in ("1", "2"):
        proc = run("-j", jobs, "--select", "TRF,E225", "boom.py", "z.py", cwd=tmp_path, hooks=hooks,
                   program=flake8)
        assert lines(proc.stderr) == ["flake8-taskref: boom.py: internal error: ValueError: boom "
                                      "(FLAKE8_TASKREF_DEBUG=1 shows the traceback)"]
        assert lines(proc.stdout) == ["boom.py:6:2: E225 missing whitespace around operator",
                                      f"z.py:5:5: {FINDING}"]
        assert proc.returncode == 1
    debug = run("boom.py", cwd=tmp_path, hooks=hooks, program=flake8,
                env={"FLAKE8_TASKREF_DEBUG": "1"})
    err = debug.stderr.decode()
    assert err.startswith("flake8-taskref: boom.py: internal error: ValueError: boom\n")
    assert 'raise ValueError("boom")' in err and debug.returncode == 1


def _unprivileged() -> List[str]:
    """A prefix that runs the command without root's right to read anything."""
    if os.geteuid() != 0:
        return []
    setpriv = shutil.which("setpriv")
    if setpriv is None:
        pytest.skip("as root, permission denied needs setpriv")
    return [setpriv, "--bounding-set", "-dac_override,-dac_read_search"]


def test_paths_that_cannot_be_read_are_e902_as_in_flake8(tmp_path: Path) -> None:
    (tmp_path / "ok.py").write_text(SOURCE)
    (tmp_path / "dangling.py").symlink_to(tmp_path / "nowhere.py")
    (tmp_path / "secret.py").write_text(SOURCE)
    (tmp_path / "secret.py").chmod(0)
    (tmp_path / "locked").mkdir()
    (tmp_path / "locked" / "inside.py").write_text(SOURCE)
    (tmp_path / "locked").chmod(0)
    try:
        paths = ["missing.py", "dangling.py", "ok.py/x.py", "secret.py", "locked", "ok.py"]
        prefix = _unprivileged()
        proc = run("--isolated", *paths, cwd=tmp_path, prefix=prefix)
        theirs = subprocess.run([*prefix, sys.executable, "-m", "flake8", "--isolated", "--select",
                                 "E902,TRF", *paths], cwd=tmp_path, capture_output=True, text=True)
        stats = run("--isolated", "--statistics", "--count", *paths, cwd=tmp_path, prefix=prefix)
        as_json = run("--isolated", "--format", "json", *paths, cwd=tmp_path, prefix=prefix)
        as_sarif = run("--isolated", "--format", "sarif", *paths, cwd=tmp_path, prefix=prefix)
        fixing = run("--isolated", "--fix", *paths, cwd=tmp_path, prefix=prefix)
    finally:
        (tmp_path / "locked").chmod(0o755)
    e902 = [
        "dangling.py:0:1: E902 FileNotFoundError: [Errno 2] No such file or directory: 'dangling.py'",
        "locked:0:1: E902 PermissionError: [Errno 13] Permission denied: 'locked'",
        "missing.py:0:1: E902 FileNotFoundError: [Errno 2] No such file or directory: 'missing.py'",
        "ok.py/x.py:0:1: E902 NotADirectoryError: [Errno 20] Not a directory: 'ok.py/x.py'",
        "secret.py:0:1: E902 PermissionError: [Errno 13] Permission denied: 'secret.py'",
    ]
    # missing.py and ok.py/x.py do not exist: a path named on the command line that does
    # not exist is a usage error too (exit 2; flake8 exits 1), so that CI fails on a typo
    missing = ["flake8-taskref: error: missing.py: no such file or folder (named on the command line)",
               "flake8-taskref: error: ok.py/x.py: no such file or folder (named on the command line)"]
    assert (proc.returncode, lines(proc.stderr)) == (2, missing)
    assert lines(proc.stdout) == [*e902[:3], f"ok.py:5:5: {FINDING}", *e902[3:]]
    # flake8 prints the same lines, except for the folder it cannot list, which it passes over
    assert sorted(theirs.stdout.splitlines()) == sorted(lines(proc.stdout)[:1] + lines(proc.stdout)[2:])
    assert lines(stats.stdout)[-3:] == [
        "5     E902 FileNotFoundError: [Errno 2] No such file or directory: 'dangling.py'",
        f"1     {FINDING}", "6"]
    records = json.loads(as_json.stdout)
    assert [(r["filename"], r["line"], r["column"], r["code"], r["name"]) for r in records][:2] == [
        ("dangling.py", 0, 1, "E902", "io-error"), ("locked", 0, 1, "E902", "io-error")]
    sarif = json.loads(as_sarif.stdout)["runs"][0]
    rules = sarif["tool"]["driver"]["rules"]
    results = sarif["results"]
    assert [r["ruleId"] for r in results] == ["E902"] * 3 + ["TRF001"] + ["E902"] * 2
    first = results[0]
    assert rules[first["ruleIndex"]]["id"] == "E902" and rules[first["ruleIndex"]]["name"] == "io-error"
    assert first["level"] == "error"
    assert first["message"]["text"] == "FileNotFoundError: [Errno 2] No such file or directory: 'dangling.py'"
    assert first["locations"][0]["physicalLocation"]["region"] == {"startLine": 1, "startColumn": 1}
    assert fixing.returncode == 2 and (tmp_path / "ok.py").read_text() == FIXED
    assert lines(fixing.stdout) == e902


# ------------------------------------------------------------------ --diff
DIFF_TREE = {
    "latin1.py": b"# -*- coding: latin-1 -*-\n# caf\xe9\n" + SOURCE.encode(),
    "bom.py": b"\xef\xbb\xbf# caf\xc3\xa9\n" + SOURCE.encode(),
    "crlf.py": SOURCE.replace("\n", "\r\n").encode(),
    "my dir/with space.py": SOURCE.encode(),
    "pkg/sub/nested.py": SOURCE.encode(),
    "caf\xe9.py": SOURCE.encode(),
    "no_newline_at_end.py": SOURCE.rstrip("\n").encode(),
}
HEADERS = [
    "diff --git a/bom.py b/bom.py", "--- a/bom.py", "+++ b/bom.py",
    'diff --git "a/caf\\303\\251.py" "b/caf\\303\\251.py"', '--- "a/caf\\303\\251.py"',
    '+++ "b/caf\\303\\251.py"',
    "diff --git a/crlf.py b/crlf.py", "--- a/crlf.py", "+++ b/crlf.py",
    "diff --git a/latin1.py b/latin1.py", "--- a/latin1.py", "+++ b/latin1.py",
    "diff --git a/my dir/with space.py b/my dir/with space.py", "--- a/my dir/with space.py\t",
    "+++ b/my dir/with space.py\t",
    "diff --git a/no_newline_at_end.py b/no_newline_at_end.py", "--- a/no_newline_at_end.py",
    "+++ b/no_newline_at_end.py",
    "diff --git a/pkg/sub/nested.py b/pkg/sub/nested.py", "--- a/pkg/sub/nested.py",
    "+++ b/pkg/sub/nested.py",
]


def _tree(root: Path) -> Dict[str, bytes]:
    for name, data in DIFF_TREE.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_bytes(data)
    return {name: (root / name).read_bytes() for name in DIFF_TREE}


def _applies(patch: bytes, cwd: Path, tool: str, scratch: Path) -> None:
    """``git apply`` or GNU ``patch -p1`` applies ``patch`` in ``cwd``."""
    (scratch / f"{tool}.patch").write_bytes(patch)
    argv = ["git", "apply", str(scratch / "git.patch")] if tool == "git" else \
        ["patch", "-p1", "--batch", "-i", str(scratch / "patch.patch")]
    done = subprocess.run(argv, cwd=cwd, capture_output=True, text=True, stdin=subprocess.DEVNULL)
    assert done.returncode == 0, done.stdout + done.stderr


def test_diff_hunks_rebuild_the_new_file_and_are_cut_as_difflib_cuts_them() -> None:
    """The diff's own matcher (patience anchors, then difflib, blocks slid down),
    on 3,000 random pairs of files made of few distinct lines: the edit script
    turns the old lines into the new ones, its ranges follow each other, and it
    is cut into hunks exactly as difflib cuts the same script."""
    import difflib
    import random

    from flake8_taskref.command import diffs

    rng = random.Random(20261201)
    for case in range(3000):
        pool = [b"x\n", b")\n", b"\n", b"except Exception as e:\n", b"n%d\n" % rng.randint(0, 30)]
        old = [rng.choice(pool) for _ in range(rng.randint(0, 40))]
        new = list(old)
        for _ in range(rng.randint(1, 4)):
            at = rng.randint(0, len(new))
            if rng.random() < 0.6 or not new:
                new[at:at] = [rng.choice([*pool, b"q%d\n" % case]) for _ in range(rng.randint(1, 3))]
            else:
                del new[at:at + rng.randint(1, 2)]
        ops = diffs._opcodes(old, new)
        rebuilt: List[bytes] = []
        i = j = 0
        for tag, i1, i2, j1, j2 in ops:
            assert (i1, j1) == (i, j), (old, new, ops)
            if tag == "equal":
                assert old[i1:i2] == new[j1:j2], (old, new, ops)
            rebuilt += new[j1:j2]
            i, j = i2, j2
        assert (i, j) == (len(old), len(new)) and rebuilt == new, (old, new, ops)
        if old != new:
            matcher = difflib.SequenceMatcher(None, old, new)
            matcher.opcodes = ops  # difflib's grouping, over this script
            assert diffs._hunks(ops) == [list(group) for group in matcher.get_grouped_opcodes(3)]


@pytest.mark.skipif(shutil.which("git") is None or shutil.which("patch") is None, reason="git and patch")
def test_diff_is_bytes_that_git_apply_and_patch_take(tmp_path: Path) -> None:
    """Encodings, a byte-order mark, CRLF, a name with a space, a non-ASCII name,
    nested folders and a last line without its newline, as git writes them."""
    for copy in ("fixed", "git", "patch"):
        (tmp_path / copy).mkdir()
        _tree(tmp_path / copy)
    assert run("--fix", ".", cwd=tmp_path / "fixed").returncode == 0
    proc = run("--diff", ".", cwd=tmp_path / "git")
    assert proc.returncode == 1, proc.stderr
    patch = proc.stdout
    assert [row.decode("latin-1") for row in patch.split(b"\n") if row[:4] in (b"diff", b"--- ", b"+++ ")] \
        == HEADERS
    assert b"\n # caf\xe9\n" in patch and b"\n \xef\xbb\xbf# caf\xc3\xa9\n" in patch  # own bytes
    assert b"+    sleep_task.add_done_callback(_background_tasks.discard)\r\n" in patch
    assert patch.count(b"\n\\ No newline at end of file\n") == 2
    assert _tree(tmp_path / "patch") == _tree(tmp_path / "git")  # --diff wrote nothing
    for tool in ("git", "patch"):
        _applies(patch, tmp_path / tool, tool, tmp_path)
        for name in DIFF_TREE:
            assert (tmp_path / tool / name).read_bytes() == (tmp_path / "fixed" / name).read_bytes(), name


@pytest.mark.skipif(shutil.which("git") is None or shutil.which("patch") is None, reason="git and patch")
def test_diff_of_a_file_outside_the_current_folder_names_it_as_git_does(tmp_path: Path) -> None:
    """An absolute path (or one outside the current folder) is named as ``git diff
    --no-index`` names an absolute path: without its leading '/'; apply it from '/'."""
    (tmp_path / "here").mkdir()
    for tool in ("git", "patch"):
        (tmp_path / f"elsewhere {tool}").mkdir()
        target = tmp_path / f"elsewhere {tool}" / "mod.py"
        target.write_text(SOURCE)
        given = str(target) if tool == "git" else os.path.relpath(target, tmp_path / "here")
        proc = run("--diff", given, cwd=tmp_path / "here")
        assert proc.returncode == 1, proc.stderr
        name = str(target).lstrip("/")
        assert lines(proc.stdout)[:3] == [
            f"diff --git a/{name} b/{name}", f"--- a/{name}\t", f"+++ b/{name}\t"]
        _applies(proc.stdout, Path("/"), tool, tmp_path)
        assert target.read_text() == FIXED


def test_diff_of_standard_input_and_of_files_that_cannot_be_read(tmp_path: Path) -> None:
    proc = run("--diff", "--stdin-display-name", "app/my mod.py", "-", cwd=tmp_path, stdin=SOURCE.encode())
    assert proc.returncode == 1
    assert lines(proc.stdout)[:3] == ["diff --git a/app/my mod.py b/app/my mod.py",
                                      "--- a/app/my mod.py\t", "+++ b/app/my mod.py\t"]
    (tmp_path / "broken.py").write_text("asyncio.create_task(job())\ndef f(:\n")
    proc = run("--diff", "missing.py", "broken.py", cwd=tmp_path)
    assert proc.returncode == 2 and proc.stdout == b""  # 2: missing.py, named, does not exist
    err = lines(proc.stderr)
    assert err[0].startswith("broken.py:2:") and " E999 SyntaxError: " in err[0]
    assert err[1] == "missing.py:0:1: E902 FileNotFoundError: [Errno 2] No such file or directory: " \
        "'missing.py'"
