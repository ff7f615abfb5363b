"""What one run of the ``flake8-taskref`` command does, and what it leaves
undone (issue 19).  No timing here (speed is measured in
``benchmarks/speed.py``): which modules a run imports, which files it parses,
how many worker processes it starts, and that the parts of flake8 it copied
(``project/flake8_parts.py``, ``project/files.py``) answer as the flake8
installed does."""
from __future__ import annotations

import argparse
import ast
import itertools
import logging
import os
import subprocess
import sys
from pathlib import Path
from typing import Any, List, Optional, Tuple

import pytest
from flake8 import utils as real_utils
from flake8.defaults import NOQA_FILE, NOQA_INLINE_REGEXP, VALID_CODE_PREFIX
from flake8.discover_files import expand_paths
from flake8.exceptions import ExecutionError
from flake8.options.config import load_config as real_load_config
from flake8.style_guide import Decision, DecisionEngine

from flake8_taskref.analysis.api import load
from flake8_taskref.analysis.options import Options
from flake8_taskref.command import runner
from flake8_taskref.project import check, flake8_parts
from flake8_taskref.command.cli import build_parser
from flake8_taskref.project.config import resolve
from flake8_taskref.project.files import Patterns, expand
from tests.test_fix import command

SOURCE = "import asyncio\n\n\nasync def main():\n    asyncio.create_task(asyncio.sleep(1))\n"
COLD = "import asyncio\n\n\nasync def main():\n    await asyncio.sleep(1)\n"


# ------------------------------------------------------------------ imports
def _modules_after(code: str, cwd: Path) -> List[str]:
    probe = code + "\nimport sys; print(repr(sorted(sys.modules)), file=sys.stderr)"
    proc = subprocess.run([sys.executable, "-c", probe], cwd=cwd, capture_output=True, text=True, timeout=120)
    loaded: List[str] = ast.literal_eval(proc.stderr.strip().splitlines()[-1])
    return loaded


RUN_ONE_FILE = (
    "from flake8_taskref.command.cli import main\n"
    "try:\n    main(['-j', '2', 'mod.py'])\nexcept SystemExit:\n    pass"
)
# what a run on one file needs none of
NOT_NEEDED = ("flake8", "flake8_plugin_utils", "logging", "importlib.metadata", "multiprocessing",
              "dataclasses", "inspect", "json", "difflib", "libcst", "black", "shutil", "tokenize",
              "flake8_taskref.fix.rewrite", "flake8_taskref.command.workers", "flake8_taskref.plugin")


def test_a_run_on_one_file_imports_only_what_it_needs(tmp_path: Path) -> None:
    """Neither flake8 (nor its plugin machinery, nor logging), nor the fixer, nor
    multiprocessing (one file needs no worker, even with -j 2), nor the modules
    only some formats or some files need."""
    (tmp_path / "mod.py").write_text(SOURCE)
    (tmp_path / "setup.cfg").write_text("[flake8]\nextend-ignore = E203\nper-file-ignores = x.py:TRF002\n")
    (tmp_path / "pyproject.toml").write_text("[tool.black]\nline-length = 100\n")
    loaded = _modules_after(RUN_ONE_FILE, tmp_path)
    assert "flake8_taskref.analysis.api" in loaded
    # What argparse itself loads on this Python is not ours to avoid: on 3.14+ an
    # ArgumentParser imports _colorize, which imports dataclasses and tokenize.
    argparse_own = set(_modules_after("import argparse; argparse.ArgumentParser()", tmp_path))
    unexpected = [
        name for name in loaded
        if (name in NOT_NEEDED or name.split(".")[0] in NOT_NEEDED) and name not in argparse_own
    ]
    assert unexpected == []
    # nor the TOML parser: this pyproject.toml cannot hold [tool.flake8-taskref]
    assert not any(name.startswith(("tomllib", "tomli")) for name in loaded)


def test_the_fixer_and_workers_are_imported_when_a_run_needs_them(tmp_path: Path) -> None:
    (tmp_path / "mod.py").write_text(SOURCE)
    loaded = _modules_after(RUN_ONE_FILE.replace("'-j', '2'", "'--diff'"), tmp_path)
    assert "flake8_taskref.fix.rewrite" in loaded and "difflib" in loaded
    assert "flake8_taskref.command.workers" not in loaded


# ------------------------------------------------------ the shortcut first
def test_only_files_that_can_spawn_are_parsed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A file that names no spawner where it can spawn is read and scanned, never
    parsed (nor split into lines); with --check-syntax every file is parsed."""
    (tmp_path / "hot.py").write_text(SOURCE)
    (tmp_path / "cold.py").write_text(COLD)
    (tmp_path / "mentions.py").write_text("# create_task is not called here\n" + COLD)
    (tmp_path / "latin.py").write_bytes(b"# -*- coding: latin-1 -*-\nname = '\xe9'\n")
    parsed: List[str] = []
    real_parse = ast.parse
    load()  # imported on first use: pytest's assertion rewriting of a plugin's modules parses them

    def parse(source: str, *args: object, **kwargs: object) -> ast.AST:
        parsed.append(source)
        return real_parse(source, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(ast, "parse", parse)
    monkeypatch.chdir(tmp_path)
    for extra, count in (((), 1), (("--check-syntax",), 4)):
        parsed.clear()
        settings = resolve(build_parser().parse_args(["--isolated", "-j", "1", *extra, "."]))
        reports = runner.check_all(settings, [])
        assert len(parsed) == count, extra
        found = [(r.path, [f.code for f in r.findings]) for r in reports if r.findings]
        assert found == [("./hot.py", ["TRF001"])]


def test_what_the_index_keeps_is_frozen_before_the_collector_runs_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The index runs with the cyclic collector paused, and what it keeps is
    frozen while it still is: else the first allocation after the index set
    off a collection that walked all of it (245 ms of a 1.4 s run on sglang)."""
    import gc

    (tmp_path / "hot.py").write_text(SOURCE)
    (tmp_path / "pyproject.toml").write_text("")
    states: List[bool] = []
    real_freeze = gc.freeze

    def freeze() -> None:
        states.append(gc.isenabled())
        real_freeze()

    monkeypatch.setattr(gc, "freeze", freeze)
    monkeypatch.chdir(tmp_path)
    settings = resolve(build_parser().parse_args(["--isolated", "--no-cache", "-j", "1", "."]))
    try:
        reports = runner.check_all(settings, [])
    finally:
        gc.unfreeze()
    found = [(r.path, [f.code for f in r.findings]) for r in reports if r.findings]
    assert found == [("./hot.py", ["TRF001"])]
    assert states == [False] and gc.isenabled()


def test_the_bytes_test_and_the_text_test_agree() -> None:
    """Before decoding, the spawner words are looked for in the bytes of a file
    that decodes as UTF-8 (or, failing that, Latin-1); a configured name that is
    not ASCII is left to the text."""
    from flake8_taskref.analysis.shortcut import may_spawn, names_a_spawner

    plain = Options.build()
    configured = Options.build(spawners=["app.créer"])
    for text, options, named in (
        ("x = 1\n", plain, False),
        ("t: asyncio.Task\n", plain, True),
        ("é = asyncio.gather(a())\n", plain, True),
        ("créer(job())\n", configured, True),
        ("x = 1\n", configured, True),  # not ASCII: the text decides
    ):
        for data in (text.encode("utf-8"), text.encode("latin-1")):
            assert names_a_spawner(data, options) is named, (text, data)
    # the text test would say no wherever the bytes test does
    for data in (b"x = 1\n", b"\xff\xfe junk \x80\n", "# é\nx = 1\n".encode()):
        assert not names_a_spawner(data, plain)
        assert not may_spawn(check.decode(data), plain)


@pytest.mark.parametrize("data", [
    b"x = 1\n", b"\xef\xbb\xbfx = 1\n", b"# coding: latin-1\nx = '\xe9'\n",
    b"#!/usr/bin/env python\n# -*- coding: cp1252 -*-\n",
    b"\n\n# coding: latin-1\n", b"x = '\xe9'\n", b"x = '\xc3\xa9'\n", b"# coding: nonsense\n", b"",
    b"\n# vim: set fileencoding=latin-1 :\n\xe9 = 1\n",
])
def test_files_are_decoded_as_flake8_decodes_them(data: bytes) -> None:
    """The UTF-8 path for files without a byte-order mark or a coding cookie gives
    what tokenize.detect_encoding's path gives."""
    import io
    import tokenize

    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
        expected = data.decode(encoding)
    except (SyntaxError, UnicodeError, LookupError):
        expected = data.decode("latin-1")
    assert check.decode(data) == expected


def test_files_are_read_whole(tmp_path: Path) -> None:
    big = tmp_path / "big.py"
    big.write_bytes(b"x = 1\n" * 500_000)
    assert check.read_bytes(str(big)) == big.read_bytes()
    empty = tmp_path / "empty.py"
    empty.write_bytes(b"")
    assert check.read_bytes(str(empty)) == b""
    with pytest.raises(IsADirectoryError) as caught:  # open()'s error, naming the file
        check.read_bytes(str(tmp_path))
    assert caught.value.filename == str(tmp_path)


# -------------------------------------------------------------- workers
@pytest.mark.parametrize("jobs, files, hot_bytes, expected", [
    (2, 1, None, 0),
    (2, 1999, None, 0),
    (2, 2000, None, 2),
    (8, 5000, None, 5),
    (1, 100_000, None, 0),
    (2, 40, 10_000, 0),  # few files to parse: one process
    (2, 40, 600_000, 2),
    (4, 3, 10_000_000, 3),  # no more workers than files
    (1, 40, 10_000_000, 0),
])
def test_the_number_of_workers_comes_from_the_work(
    jobs: int, files: int, hot_bytes: Optional[int], expected: int
) -> None:
    assert runner.FILES_PER_WORKER == 1000 and runner.HOT_BYTES_PER_WORKER == 300_000
    assert runner.worker_count(jobs, files, hot_bytes) == expected


def _tree(root: Path, count: int, hot_every: int) -> None:
    for number in range(count):
        folder = root / f"pkg{number % 7}"
        folder.mkdir(exist_ok=True)
        (folder / f"m{number:03d}.py").write_text(SOURCE if number % hot_every == 0 else COLD)


@pytest.mark.parametrize("files_per_worker, hot_bytes_per_worker, jobs, workers", [
    (10**9, 10**9, 2, []),  # one process
    # many files to read (the 15 that name a spawner: the index knows the others
    # have no finding): workers from the walk, and more as the walk finds more
    (5, 10**9, 2, [2]),
    (5, 10**9, 3, [2, 3]),
    (10**9, 1, 2, [2]),  # few files, but big enough to parse: workers for those
    (10, 1, 1, []),  # -j 1: one process whatever the work
])
def test_workers_start_as_the_work_asks_and_change_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, files_per_worker: int, hot_bytes_per_worker: int,
    jobs: int, workers: List[int],
) -> None:
    from flake8_taskref.command import workers as pool_module

    _tree(tmp_path, 60, 4)
    monkeypatch.chdir(tmp_path)
    settings = resolve(build_parser().parse_args(["--isolated", "-j", str(jobs), "."]))
    monkeypatch.setattr(runner, "FILES_PER_WORKER", 10**9)
    monkeypatch.setattr(runner, "HOT_BYTES_PER_WORKER", 10**9)
    alone = [(r.path, r.findings) for r in runner.check_all(settings, [])]  # those with findings
    assert len(alone) == 15 and all(len(findings) == 1 for _, findings in alone)

    grown: List[int] = []
    real_grow = pool_module.Pool.grow

    def grow(self: pool_module.Pool, count: int) -> None:
        if count > len(self):
            grown.append(count)
        real_grow(self, count)

    monkeypatch.setattr(pool_module.Pool, "grow", grow)
    monkeypatch.setattr(runner, "FILES_PER_WORKER", files_per_worker)
    monkeypatch.setattr(runner, "HOT_BYTES_PER_WORKER", hot_bytes_per_worker)
    assert [(r.path, r.findings) for r in runner.check_all(settings, [])] == alone
    assert grown == workers


def test_a_batch_a_worker_died_on_is_checked_again_file_by_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Only the file the worker dies on is an internal error; the others of its
    batch are checked by a new worker."""
    _tree(tmp_path, 60, 4)
    (tmp_path / "pkg0" / "m999.py").write_text("# die here\n" + SOURCE)
    monkeypatch.chdir(tmp_path)
    real_check = runner.check_file

    def check_file(path: str, settings: object) -> runner.FileReport:
        if path.endswith("m999.py"):
            os._exit(9)
        return real_check(path, settings)  # type: ignore[arg-type]

    monkeypatch.setattr(runner, "check_file", check_file)
    monkeypatch.setattr(runner, "FILES_PER_WORKER", 5)
    settings = resolve(build_parser().parse_args(["--isolated", "-j", "2", "."]))
    reports = runner.check_all(settings, [])
    internal = [(r.path, r.internal_error) for r in reports if r.internal_error]
    assert internal == [("./pkg0/m999.py", "the worker process died (exit code 9)")]
    assert len([r for r in reports if r.findings]) == 15


# ------------------------------------------------- flake8's parts, copied
def _layout(root: Path) -> Path:
    """A project two folders deep, config files on the way up."""
    deep = root / "project" / "src" / "pkg"
    deep.mkdir(parents=True)
    (root / "project" / "tox.ini").write_text("[tox]\nenvlist = py\n")  # no flake8 section
    (root / "project" / "src" / "setup.cfg").write_text("[flake8]\nmax-line-length = 99\n")
    (root / "project" / ".flake8").write_text("[flake8]\nselect = E\n")
    (root / "project" / "bad.ini").write_text("no section header\n")
    return deep


@pytest.mark.parametrize("config, isolated", [
    (None, False), (None, True), ("../../.flake8", False), ("../../missing.ini", False),
])
def test_the_config_file_is_found_and_read_as_flake8_does(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, config: Optional[str], isolated: bool,
) -> None:
    monkeypatch.chdir(_layout(tmp_path))

    def outcome(load: object) -> Tuple[object, ...]:
        try:
            if load is real_load_config:
                cfg, folder = real_load_config(config, [], isolated=isolated)
            else:
                cfg, folder = flake8_parts.load_config(config, isolated)
        except (ExecutionError, flake8_parts.ConfigFileMissing) as exc:
            return ("error", str(exc))
        return ({name: dict(cfg[name]) for name in cfg.sections()}, folder)

    assert outcome(flake8_parts.load_config) == outcome(real_load_config)


def test_an_unparseable_config_file_is_passed_over_as_flake8_does(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    deep = _layout(tmp_path)
    (deep / "setup.cfg").write_text("not a config file\n[flake8\n")
    monkeypatch.chdir(deep)
    ours = flake8_parts.load_config(None, False)
    theirs = real_load_config(None, [], isolated=False)
    assert ours[1] == theirs[1] == str(tmp_path / "project" / "src")


def test_the_choice_of_codes_is_flake8s() -> None:
    """Every combination of select/ignore, their extend- forms and the plugin's
    extended defaults, for our codes and a few of flake8's."""
    values: List[Optional[List[str]]] = [None, [], ["TRF"], ["TRF006"], ["TRF0", "E"], ["TRF00", "TRF001"]]
    codes = ["TRF001", "TRF002", "TRF006", "E501", "E121", "W503", "F401"]
    checked = 0
    for select, ignore, extend_select, extend_ignore in itertools.product(values, repeat=4):
        options = argparse.Namespace(
            select=select, ignore=ignore, extend_select=extend_select, extend_ignore=extend_ignore,
            extended_default_select=["TRF"], extended_default_ignore=["TRF006"],
        )
        engine = DecisionEngine(options)
        for code in codes:
            assert flake8_parts.selected(options, code) == (engine.decision_for(code) == Decision.Selected), \
                (options, code)
            checked += 1
    assert checked == len(values) ** 4 * len(codes)


@pytest.mark.parametrize("value", [
    "", "a.py:TRF001", "a.py,b/*.py:TRF001,TRF002 c.py: E501", "a.py:TRF001\n  b.py: TRF002",
    "a.py", "a.py:", ":TRF001", "a.py:TRF001:TRF002", "a.py TRF001",
])
def test_per_file_ignores_are_read_as_flake8_reads_them(value: str) -> None:
    try:
        theirs: object = real_utils.parse_files_to_codes_mapping(value)
    except ExecutionError as exc:
        theirs = str(exc)
    try:
        ours: object = flake8_parts.parse_files_to_codes_mapping(value)
    except flake8_parts.PerFileIgnoresError as exc:
        ours = str(exc)
    assert ours == theirs


def test_a_per_file_ignores_value_flake8_cannot_read_is_one_error(tmp_path: Path) -> None:
    """It was a traceback (flake8's ExecutionError is no ValueError)."""
    (tmp_path / "mod.py").write_text(SOURCE)
    proc = command("--per-file-ignores", "mod.py", "mod.py", cwd=tmp_path)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    (line,) = proc.stderr.splitlines()  # one line, no usage line (a value, not the command line's shape)
    assert line.startswith("flake8-taskref: error: --per-file-ignores: Expected")


def test_lists_paths_and_noqa_patterns_are_flake8s(tmp_path: Path) -> None:
    for value in ("", "a,b", " a , b ,, c\n d\te", "E1,W2"):
        assert flake8_parts.parse_comma_separated_list(value) == real_utils.parse_comma_separated_list(value)
    for path in (".", "a", "a/b", "./a/", "../x", "/abs/path/", "*.py", "dir/*.py"):
        for parent in (os.curdir, str(tmp_path)):
            assert flake8_parts.normalize_path(path, parent) == real_utils.normalize_path(path, parent)
    assert flake8_parts.EXCLUDE == __import__("flake8.defaults").defaults.EXCLUDE
    assert flake8_parts.IGNORE == __import__("flake8.defaults").defaults.IGNORE
    assert flake8_parts.noqa_inline().pattern == NOQA_INLINE_REGEXP.pattern
    assert flake8_parts.noqa_inline().flags == NOQA_INLINE_REGEXP.flags
    assert flake8_parts.noqa_file().pattern == NOQA_FILE.pattern
    assert flake8_parts.noqa_file().flags == NOQA_FILE.flags
    assert flake8_parts.VALID_CODE_PREFIX.pattern == VALID_CODE_PREFIX.pattern


PATTERNS = [(), ("*.py",), ("*.py", "*.pyi"), ("*/sub/*.py",), ("m0?.py",), ("*[0-4].py",), ("*",),
            ("*a*b*c*d*e*.py", "*x*y*.py")]


@pytest.mark.parametrize("patterns", PATTERNS)
def test_patterns_match_as_flake8_matches(tmp_path: Path, patterns: Tuple[str, ...]) -> None:
    names = ["a.py", "./pkg/sub/m01.py", "pkg/m5.py", "abcde.py", "notes.txt", ".", "..", "x/y.py",
             str(tmp_path / "sub" / "m07.py"), "PKG/A.PY", "a.pyi", "m0x.py"]
    compiled = Patterns(patterns)
    for name in names:
        assert compiled.fnmatch(name) == real_utils.fnmatch(name, patterns), name
        assert compiled.matches_filename(name) == real_utils.matches_filename(
            name, patterns=patterns, log_message="", logger=logging.getLogger("t")), name


@pytest.mark.parametrize("args", [
    [], ["--extend-exclude", "skip,*_gen.py"], ["--exclude", "pkg1"], ["--filename", "*.py,*.pyi"],
    ["--filename", "m00?.py,*.pyi"], ["--exclude", str(Path("pkg3") / "m*")],
    ["pkg1", "pkg2/m002.py", "notes.txt"],
])
def test_the_files_found_are_flake8s(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, args: List[str]
) -> None:
    """Files, folders excluded by name or path, filename patterns, files named
    on the command line, a link to a folder (not followed), a folder that
    cannot be listed."""
    _tree(tmp_path, 40, 3)
    for name in ("skip", ".git", "__pycache__", "x.egg"):
        (tmp_path / name).mkdir()
        (tmp_path / name / "m.py").write_text(SOURCE)
    (tmp_path / "pkg1" / "a_gen.py").write_text(SOURCE)
    (tmp_path / "pkg1" / "stub.pyi").write_text(SOURCE)
    (tmp_path / "notes.txt").write_text(SOURCE)
    (tmp_path / "linked").symlink_to(tmp_path / "pkg2", target_is_directory=True)
    (tmp_path / "locked").mkdir()
    (tmp_path / "locked" / "m.py").write_text(SOURCE)
    monkeypatch.chdir(tmp_path)
    settings = resolve(build_parser().parse_args(["--isolated", *args]))
    errors: List[OSError] = []
    ours = sorted(expand(settings.paths, settings.filename_patterns, settings.exclude, "stdin", errors))
    theirs = sorted(expand_paths(paths=list(settings.paths), stdin_display_name="stdin",
                                 filename_patterns=list(settings.filename_patterns),
                                 exclude=list(settings.exclude)))
    assert ours == theirs and ours
    assert all(not path.startswith("./linked/") for path in ours)


def test_a_folder_that_cannot_be_listed_is_an_error_as_in_os_walk(tmp_path: Path) -> None:
    from flake8_taskref.project.files import _walk

    (tmp_path / "a" / "b").mkdir(parents=True)
    (tmp_path / "a" / "b" / "m.py").write_text("")
    (tmp_path / "a" / "n.py").write_text("")
    missing = str(tmp_path / "gone")
    for top in (str(tmp_path), missing):
        ours_errors: List[OSError] = []
        theirs_errors: List[OSError] = []
        ours = [(root, sorted(dirs), sorted(files)) for root, dirs, files in _walk(top, ours_errors.append)]
        theirs = [(root, sorted(dirs), sorted(files))
                  for root, dirs, files in os.walk(top, onerror=theirs_errors.append)]
        assert sorted(ours) == sorted(theirs)
        assert [e.filename for e in ours_errors] == [e.filename for e in theirs_errors]


def test_the_help_is_as_wide_as_argparse_makes_it(tmp_path: Path) -> None:
    """The formatter finds the terminal's width without shutil, as shutil does."""
    for columns in ("50", "120", "", "junk"):
        env = {key: value for key, value in os.environ.items() if key != "COLUMNS"}
        if columns:
            env["COLUMNS"] = columns
        code = ("import argparse, sys; from flake8_taskref.command.cli import build_parser, PROG\n"
                "ours = build_parser().format_help()\n"
                "plain = build_parser(); plain.formatter_class = argparse.HelpFormatter\n"
                "print(ours == plain.format_help())")
        proc = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                              cwd=tmp_path)
        assert proc.stdout.strip() == "True", (columns, proc.stderr)


def test_a_pyproject_without_our_table_is_not_parsed_unless_fixing(tmp_path: Path) -> None:
    """Its text cannot hold [tool.flake8-taskref] (no name, no escape): only --fix
    and --diff need it, for the formatter's line length."""
    (tmp_path / "mod.py").write_text(SOURCE)
    (tmp_path / "pyproject.toml").write_text("[tool.black]\nline-length = 100\nbroken = \n")
    assert command("mod.py", cwd=tmp_path).returncode == 1  # the finding; the TOML is not read
    fixing = command("--diff", "mod.py", cwd=tmp_path)
    assert fixing.returncode == 2 and "pyproject.toml" in fixing.stderr
    for table in ('[tool."flake8-taskref"]\nselect = 1.5\n', '[tool."flake8\\u002dtaskref"]\nselect = 1.5\n'):
        (tmp_path / "pyproject.toml").write_text(table)
        proc = command("mod.py", cwd=tmp_path)
        assert proc.returncode == 2 and "expected a string" in proc.stderr, table


def test_decisions_in_a_run_match_flake8s_own(tmp_path: Path) -> None:
    """The codes a whole run reports, with a [flake8] config that selects and
    ignores, are those flake8 reports."""
    (tmp_path / "mod.py").write_text(
        SOURCE + "\n\ndef f(loop):\n    t = loop.create_task(asyncio.sleep(1))\n")
    (tmp_path / "setup.cfg").write_text("[flake8]\nselect = TRF0\nextend-ignore = TRF001\n")
    ours = command("--format", "%(path)s|%(row)d|%(col)d|%(code)s", "mod.py", cwd=tmp_path).stdout
    from tests.harness import flake8

    theirs = flake8(["--format", "%(path)s|%(row)d|%(col)d|%(code)s", "mod.py"], cwd=tmp_path).stdout
    assert ours == theirs and "TRF002" in ours and "TRF001" not in ours


def test_settings_are_read_the_same_from_every_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A [flake8] section with lists, paths and per-file-ignores resolves as before."""
    (tmp_path / "setup.cfg").write_text(
        "[flake8]\nextend-exclude = build,\n  docs/*.py\nper-file-ignores =\n  tests/*.py: TRF002\n"
        "extend-select = TRF006\n")
    monkeypatch.chdir(tmp_path)
    settings = resolve(build_parser().parse_args([]))
    assert settings.exclude[-2:] == ("build", str(tmp_path / "docs" / "*.py"))
    assert settings.codes == frozenset(
        {"TRF001", "TRF002", "TRF003", "TRF004", "TRF005", "TRF006", "TRF007", "TRF009"})
    assert settings.per_file == ((str(tmp_path / "tests" / "*.py"), settings.codes - {"TRF002"}),)
    assert settings.codes_for("./tests/test_a.py") == settings.codes - {"TRF002"}
    assert settings.codes_for("./src/a.py") == settings.codes


def test_the_index_spares_reading_files_that_can_have_no_finding(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A file the project's index has seen, unchanged, that names no spawner is
    not even read on a warm run (as Ruff's cache skips a file it has seen); one
    changed since is read again by the index, and every file by the check with
    --check-syntax."""
    from flake8_taskref.project import view as view_module

    _tree(tmp_path, 20, 4)
    (tmp_path / "pyproject.toml").write_text("")  # a project's root (no project: no cache)
    monkeypatch.chdir(tmp_path)
    read: List[Tuple[str, str]] = []

    def counting(where: str, real: Any) -> Any:
        def read_bytes(path: str) -> bytes:
            read.append((where, os.path.basename(path)))
            return real(path)  # type: ignore[no-any-return]
        return read_bytes

    monkeypatch.setattr(runner, "read_bytes", counting("check", runner.read_bytes))
    monkeypatch.setattr(view_module, "read_bytes", counting("index", view_module.read_bytes))

    def run(*args: str) -> List[Tuple[str, int]]:
        view_module._VIEWS.clear()  # a new process, as each run of the command is
        read.clear()
        settings = resolve(build_parser().parse_args(["--isolated", "-j", "1", *args, "."]))
        return [(r.path, len(r.findings)) for r in runner.check_all(settings, [])]

    hot = [f"m{n:03d}.py" for n in range(0, 20, 4)]
    first = run()  # cold: the index reads every file, the check the five hot ones
    assert len(first) == 5
    assert sorted(name for where, name in read if where == "check") == hot
    assert len([name for where, name in read if where == "index"]) == 20
    assert run() == first  # warm: the index reads nothing, the check the five again
    assert sorted(name for _, name in read) == hot and {where for where, _ in read} == {"check"}
    (tmp_path / "pkg1" / "m001.py").write_text(COLD + "\n# changed\n")
    assert run() == first
    assert [name for where, name in read if where == "index"] == ["m001.py"]
    assert sorted(name for where, name in read if where == "check") == hot
    run("--check-syntax")
    assert len([name for where, name in read if where == "check"]) == 20
