"""The ``flake8-taskref`` command, through its console script: the same findings
as ``flake8 --select TRF``, configuration, noqa, output formats, exit codes."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Dict, List, Tuple

import pytest

from tests.harness import _FORMAT, DATA, extra_args, fixture_files, flake8, lint, parse_output
from tests.test_fix import command

FILES = fixture_files()
SOURCE = "import asyncio\n\n\nasync def main():\n    asyncio.create_task(asyncio.sleep(1))\n"
POOL = (
    "import asyncio\n\n\nclass Pool:\n    def __init__(self):\n        self.tasks = set()\n\n"
    "    async def run(self, coro):\n        self.tasks.add(asyncio.create_task(coro))\n"
)


def ours(files: List[Path], *args: str, cwd: Path = DATA) -> Dict[str, List[Tuple[int, int, str, str]]]:
    proc = command("--isolated", "--select", "TRF", "--format", _FORMAT, *args,
                   *[str(f) for f in files], cwd=cwd)
    assert proc.returncode in (0, 1), proc.stderr
    assert "Traceback" not in proc.stderr, proc.stderr
    return parse_output(proc.stdout)


@pytest.mark.parametrize("args", sorted({extra_args(f) for f in FILES}), ids=lambda a: " ".join(a) or "plain")
def test_same_findings_as_flake8_on_every_fixture(args: Tuple[str, ...]) -> None:
    group = [f for f in FILES if extra_args(f) == args]
    mine = ours(group, *args)
    assert mine == lint(group, *args)
    assert sum(len(found) for found in mine.values()) > 0


def test_same_findings_with_noqa_disabled() -> None:
    noqa = DATA / "noqa.py"
    assert ours([noqa], "--disable-noqa") == lint([noqa], "--disable-noqa")
    assert len(ours([noqa], "--disable-noqa")[str(noqa)]) > len(ours([noqa])[str(noqa)])


def test_parallel_jobs_give_the_same_output() -> None:
    plain = [f for f in FILES if not extra_args(f)]
    one = command("--isolated", "--select", "TRF", "-j", "1", *map(str, plain), cwd=DATA)
    two = command("--isolated", "--select", "TRF", "-j", "2", *map(str, plain), cwd=DATA)
    assert one.stdout == two.stdout and one.stdout
    assert one.stdout.splitlines() == sorted(one.stdout.splitlines(), key=lambda row: (
        row.split(":")[0], int(row.split(":")[1]), int(row.split(":")[2])))


def test_module_entry_point_and_version(tmp_path: Path) -> None:
    (tmp_path / "mod.py").write_text(SOURCE)
    proc = subprocess.run([sys.executable, "-m", "flake8_taskref", "mod.py"], cwd=tmp_path,
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 1
    assert proc.stdout.startswith("mod.py:5:5: TRF001 task returned by asyncio.create_task() is not stored")
    from flake8_taskref import __version__

    version = command("--version", cwd=tmp_path)
    assert version.stdout.strip() == f"flake8-taskref {__version__}"


def test_exit_codes(tmp_path: Path) -> None:
    (tmp_path / "bad.py").write_text(SOURCE)
    (tmp_path / "good.py").write_text("import asyncio\n")
    assert command("good.py", cwd=tmp_path).returncode == 0
    assert command("bad.py", cwd=tmp_path).returncode == 1
    assert command("--exit-zero", "bad.py", cwd=tmp_path).returncode == 0
    assert command("--no-such-option", cwd=tmp_path).returncode == 2
    assert command("--format", "xml", "bad.py", cwd=tmp_path).returncode == 2
    # Ruff's name for the option: the same documents, and its formats of no such name refused
    as_ruff = command("--output-format", "json", "bad.py", cwd=tmp_path)
    assert as_ruff.returncode == 1 and json.loads(as_ruff.stdout)
    assert as_ruff.stdout == command("--format", "json", "bad.py", cwd=tmp_path).stdout
    assert command("--output-format", "concise", "bad.py", cwd=tmp_path).returncode == 2
    wrong = command("--enable-extensions", "TRF006", "bad.py", cwd=tmp_path)
    assert wrong.returncode == 2 and wrong.stdout == ""
    assert wrong.stderr.splitlines()[-1].endswith(
        "enable TRF006, TRF008 or TRF010 with --extend-select TRF006,TRF008,TRF010")


def test_stdin_with_display_name(tmp_path: Path) -> None:
    proc = command("--stdin-display-name", "app/service.py", "-", cwd=tmp_path, stdin=SOURCE)
    assert proc.returncode == 1
    assert proc.stdout.startswith("app/service.py:5:5: TRF001 ")
    plain = command("-", cwd=tmp_path, stdin=SOURCE)
    assert plain.stdout.startswith("stdin:5:5: TRF001 ")


BROKEN = "import asyncio\n\n\ndef f(:\n    asyncio.create_task(job())\n"


def test_syntax_error_is_one_line_and_the_run_goes_on(tmp_path: Path) -> None:
    (tmp_path / "a_broken.py").write_text(BROKEN)
    (tmp_path / "b.py").write_text(SOURCE)
    proc = command(".", cwd=tmp_path)
    assert proc.returncode == 1
    assert "Traceback" not in proc.stderr
    rows = proc.stdout.splitlines()
    assert rows[0] == "./a_broken.py:4:8: E999 SyntaxError: invalid syntax" if sys.version_info >= (3, 10) \
        else rows[0].startswith("./a_broken.py:4:")
    assert rows[1].startswith("./b.py:5:5: TRF001 ")
    flake8_rows = flake8(["--isolated", "--select", "E999", "a_broken.py"], cwd=tmp_path).stdout
    assert flake8_rows.strip() == rows[0][2:]


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_syntax_errors_of_files_without_a_spawner_only_with_check_syntax(tmp_path: Path, jobs: str) -> None:
    """A file that names no spawner is read and scanned, not parsed: its syntax
    error is the project's linter's to report, unless --check-syntax asks."""
    (tmp_path / "a_broken.py").write_text("def f(:\n    pass\n")
    (tmp_path / "b.py").write_text(SOURCE)
    (tmp_path / "c_broken.py").write_text(BROKEN)
    default = command("-j", jobs, ".", cwd=tmp_path).stdout.splitlines()
    assert [row.split(":")[0] for row in default] == ["./b.py", "./c_broken.py"]
    checked = command("-j", jobs, "--check-syntax", ".", cwd=tmp_path).stdout.splitlines()
    assert checked[0].startswith("./a_broken.py:1:") and " E999 SyntaxError: " in checked[0]
    assert checked[1:] == default
    (tmp_path / "setup.cfg").write_text("[flake8]\ncheck-syntax = true\n")
    assert command("-j", jobs, ".", cwd=tmp_path).stdout.splitlines() == checked


def test_default_paths_and_excludes(tmp_path: Path) -> None:
    for folder in (".git", ".tox", "__pycache__", "build", "src"):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "mod.py").write_text(SOURCE)
    (tmp_path / "notes.txt").write_text(SOURCE)
    found = command(cwd=tmp_path).stdout
    assert [row.split(":")[0] for row in found.splitlines()] == ["./build/mod.py", "./src/mod.py"]
    found = command("--extend-exclude", "build", cwd=tmp_path).stdout
    assert [row.split(":")[0] for row in found.splitlines()] == ["./src/mod.py"]
    (tmp_path / "setup.cfg").write_text("[flake8]\nextend-exclude = src\n")
    found = command(cwd=tmp_path).stdout
    assert [row.split(":")[0] for row in found.splitlines()] == ["./build/mod.py"]
    # a file named on the command line is always checked
    assert command("notes.txt", cwd=tmp_path).stdout.startswith("notes.txt:5:5: TRF001")


NOQA_CASES = [
    ("asyncio.create_task(asyncio.sleep(1))  # noqa\n", False),
    ("asyncio.create_task(asyncio.sleep(1))  # NOQA:TRF001\n", False),
    ("asyncio.create_task(asyncio.sleep(1))  # noqa: TRF\n", False),
    ("asyncio.create_task(asyncio.sleep(1))  # noqa: E501,TRF001\n", False),
    ("asyncio.create_task(asyncio.sleep(1))  # noqa: RUF006, TRF001\n", False),
    ("asyncio.create_task(asyncio.sleep(1))  # noqa: TRF002\n", True),
    ("asyncio.create_task(asyncio.sleep(1))  # noqa:E501\n", True),
    ("asyncio.create_task(\n        asyncio.sleep(1),\n    )  # noqa: TRF001\n", True),  # only its own line
]


@pytest.mark.parametrize("tail,reported", NOQA_CASES)
def test_noqa_as_flake8_reads_it(tmp_path: Path, tail: str, reported: bool) -> None:
    (tmp_path / "mod.py").write_text("import asyncio\n\n\nasync def main():\n    " + tail)
    mine = command("--isolated", "--select", "TRF", "mod.py", cwd=tmp_path)
    theirs = flake8(["--isolated", "--select", "TRF", "mod.py"], cwd=tmp_path)
    assert mine.stdout == theirs.stdout
    assert bool(mine.stdout) == reported
    assert command("--isolated", "--disable-noqa", "mod.py", cwd=tmp_path).returncode == 1


def test_file_level_noqa(tmp_path: Path) -> None:
    (tmp_path / "mod.py").write_text("# flake8: noqa\n" + SOURCE)
    assert command("mod.py", cwd=tmp_path).stdout == ""
    assert command("--disable-noqa", "mod.py", cwd=tmp_path).stdout.startswith("mod.py:6:5: TRF001")


# ------------------------------------------------------------ configuration
CONFIG_TEXT = {
    "setup.cfg": "[flake8]\ntaskref-spawners = myapp.tasks.fire\n",
    "tox.ini": "[flake8]\ntaskref_spawners =\n    myapp.tasks.fire,\n",
    ".flake8": "[flake8]\ntaskref-spawners = myapp.tasks.fire\n",
    "pyproject.toml": "[tool.flake8-taskref]\ntaskref-spawners = [\"myapp.tasks.fire\"]\n",
}
HELPER_USE = "from myapp.tasks import fire\n\n\nasync def main():\n    fire(main())\n"


@pytest.mark.parametrize("name", sorted(CONFIG_TEXT))
def test_options_from_every_config_file(tmp_path: Path, name: str) -> None:
    (tmp_path / "mod.py").write_text(HELPER_USE)
    assert command("mod.py", cwd=tmp_path).stdout == ""
    (tmp_path / name).write_text(CONFIG_TEXT[name])
    found = command("mod.py", cwd=tmp_path).stdout
    assert found.startswith("mod.py:5:5: TRF001 task returned by myapp.tasks.fire() is not stored")
    assert command("--isolated", "mod.py", cwd=tmp_path).stdout == ""
    if name != "pyproject.toml":
        assert flake8(["--select", "TRF", "mod.py"], cwd=tmp_path).stdout == found


def test_precedence_flake8_then_pyproject_then_command_line(tmp_path: Path) -> None:
    (tmp_path / "mod.py").write_text(POOL + SOURCE)
    (tmp_path / "setup.cfg").write_text("[flake8]\nextend-select = TRF006\n")

    def codes(*args: str) -> List[str]:
        return [row.split()[1] for row in command(*args, "mod.py", cwd=tmp_path).stdout.splitlines()]

    assert codes() == ["TRF006", "TRF001"]
    (tmp_path / "pyproject.toml").write_text("[tool.flake8-taskref]\nextend-select = []\n")
    assert codes() == ["TRF001"]
    assert codes("--extend-select", "TRF006") == ["TRF006", "TRF001"]
    assert codes("--ignore", "TRF001") == []
    assert codes("--ignore", "TRF001", "--extend-select", "TRF006") == ["TRF006"]
    # flake8 itself reads setup.cfg only: there TRF006 stays on
    theirs = flake8(["--ignore", "TRF001", "mod.py"], cwd=tmp_path).stdout
    assert [row.split()[1] for row in theirs.splitlines() if " TRF" in row] == ["TRF006"]


@pytest.mark.parametrize("args,config,on", [
    ((), "", False),
    (("--select", "TRF"), "", False),
    (("--extend-select", "TRF006"), "", True),
    (("--select", "TRF,TRF006"), "", True),
    ((), "[flake8]\nselect = E,F,W,TRF\n", False),
    ((), "[flake8]\nextend-select = TRF\n", False),
    ((), "[flake8]\nextend-select = TRF006\n", True),
    ((), "[flake8]\nselect = E,F,W\n", False),
    (("--select", "TRF001"), "", False),
    (("--extend-select", "TRF006", "--extend-ignore", "TRF006"), "", False),
])
def test_trf006_is_on_exactly_when_flake8_turns_it_on(
    tmp_path: Path, args: Tuple[str, ...], config: str, on: bool
) -> None:
    (tmp_path / "mod.py").write_text(POOL)
    if config:
        (tmp_path / "setup.cfg").write_text(config)
    mine = command(*args, "--format", _FORMAT, "mod.py", cwd=tmp_path)
    theirs = flake8([*args, "--format", _FORMAT, "mod.py"], cwd=tmp_path)
    mine_codes = [row.split("|")[3] for row in mine.stdout.splitlines()]
    theirs_codes = [row.split("|")[3] for row in theirs.stdout.splitlines() if "|TRF" in row]
    assert mine_codes == theirs_codes
    assert ("TRF006" in mine_codes) == on


def test_per_file_ignores(tmp_path: Path) -> None:
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_mod.py").write_text(SOURCE)
    (tmp_path / "mod.py").write_text(SOURCE)
    (tmp_path / "setup.cfg").write_text("[flake8]\nper-file-ignores =\n    tests/*.py: TRF001\n")
    rows = command(".", cwd=tmp_path).stdout.splitlines()
    assert [row.split(":")[0] for row in rows] == ["./mod.py"]
    assert flake8(["--select", "TRF", "."], cwd=tmp_path).stdout.splitlines() == rows


@pytest.mark.parametrize("option,value,detail", [
    ("--taskref-spawners", "a,,b", "--taskref-spawners: empty item in 'a,,b'"),
    ("--taskref-loop-names", "self.loop", "--taskref-loop-names: 'self.loop' is not a name"),
    ("--taskref-timeouts", "a.", "--taskref-timeouts: 'a.' is not a dotted name"),
    ("--select", "trf001", "--select: error code 'trf001' does not match"),
    ("--jobs", "many", "--jobs: 'many' is neither 'auto' nor a whole number"),
])
def test_bad_values_give_one_clear_error(tmp_path: Path, option: str, value: str, detail: str) -> None:
    (tmp_path / "mod.py").write_text(SOURCE)
    for args, config in (([option, value], None), ([], f"[flake8]\n{option[2:]} = {value}\n")):
        if config is not None:
            (tmp_path / "setup.cfg").write_text(config)
        proc = command(*args, "mod.py", cwd=tmp_path)
        assert proc.returncode == 2, proc.stdout + proc.stderr
        last = proc.stderr.strip().splitlines()[-1]
        assert last.startswith(f"flake8-taskref: error: {detail}"), proc.stderr
        assert "Traceback" not in proc.stderr


@pytest.mark.parametrize("name,content,detail", [
    ("setup.cfg", b"[flake8]\nper-file-ignores =\n    TRF001\n",
     "--per-file-ignores: Expected `per-file-ignores` to be a mapping"),
    # one that cannot hold our table is not parsed (tests/test_command_work.py)
    ("pyproject.toml", b'[tool.flake8-taskref]\ntaskref-spawners = "\xe9"\n',
     "pyproject.toml: 'utf-8' codec can't decode"),
], ids=["malformed per-file-ignores", "pyproject.toml not UTF-8 in a parent folder"])
def test_unreadable_configuration(tmp_path: Path, name: str, content: bytes, detail: str) -> None:
    """A malformed per-file-ignores and a pyproject.toml with our table that is
    not UTF-8 (here in the parent folder) gave a traceback: one clear error."""
    (tmp_path / "project").mkdir()
    (tmp_path / "project" / "mod.py").write_text(SOURCE)
    (tmp_path / name if name == "pyproject.toml" else tmp_path / "project" / name).write_bytes(content)
    proc = command("mod.py", cwd=tmp_path / "project")
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert "Traceback" not in proc.stderr
    assert detail in proc.stderr.strip().splitlines()[-1], proc.stderr


def test_bad_pyproject_settings(tmp_path: Path) -> None:
    (tmp_path / "mod.py").write_text(SOURCE)
    (tmp_path / "pyproject.toml").write_text("[tool.flake8-taskref]\ntaskref-spawner = 'x'\n")
    proc = command("mod.py", cwd=tmp_path)
    assert proc.returncode == 2
    assert "unknown setting 'taskref-spawner'" in proc.stderr.strip().splitlines()[-1]


# ------------------------------------------------------------------ output
def test_statistics_and_count_as_flake8(tmp_path: Path) -> None:
    files = [str(f) for f in FILES if not extra_args(f)]
    mine = command("--isolated", "--select", "TRF", "--statistics", "--count", *files, cwd=DATA)
    theirs = flake8(["--isolated", "--select", "TRF", "--statistics", "--count", *files], cwd=DATA)
    assert mine.stdout == theirs.stdout
    assert mine.stdout.splitlines()[-1].isdigit()


def test_pylint_and_custom_formats_as_flake8() -> None:
    path = str(DATA / "trf001_dropped.py")
    for fmt in ("pylint", "%(path)s|%(row)d|%(code)s"):
        mine = command("--isolated", "--select", "TRF", "--format", fmt, path, cwd=DATA)
        theirs = flake8(["--isolated", "--select", "TRF", "--format", fmt, path], cwd=DATA)
        assert mine.stdout == theirs.stdout and mine.stdout


def test_json_output(tmp_path: Path) -> None:
    (tmp_path / "mod.py").write_text(SOURCE)
    proc = command("--format", "json", "mod.py", cwd=tmp_path)
    assert proc.returncode == 1
    assert json.loads(proc.stdout) == [{
        "filename": "mod.py", "line": 5, "column": 5, "code": "TRF001", "name": "dropped-task",
        "message": "task returned by asyncio.create_task() is not stored; keep a reference "
        "(e.g. a set with add_done_callback(set.discard))",
        "url": "https://flake8-taskref.readthedocs.io/en/latest/rules/TRF001/",
    }]
    assert json.loads(command("--format", "json", "-", cwd=tmp_path, stdin="x = 1\n").stdout) == []


def test_sarif_output(tmp_path: Path) -> None:
    from flake8_taskref.analysis.messages import MESSAGES, NAMES

    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "mod.py").write_text("x = 'é'\n" + SOURCE)
    proc = command("--format", "sarif", "pkg", cwd=tmp_path)
    assert proc.returncode == 1
    log = json.loads(proc.stdout)
    assert log["version"] == "2.1.0" and log["$schema"].endswith("sarif-2.1.0.json")
    run = log["runs"][0]
    rules = run["tool"]["driver"]["rules"]
    assert [rule["id"] for rule in rules] == [*sorted(MESSAGES), "E902", "E999"]
    for rule in rules[:-2]:
        assert rule["name"] == NAMES[rule["id"]]
        assert rule["shortDescription"]["text"]
        assert rule["helpUri"].endswith(f"/rules/{rule['id']}/")
    [result] = run["results"]
    assert result["ruleId"] == "TRF001" and result["level"] == "warning"
    assert result["message"]["text"].startswith("task returned by asyncio.create_task()")
    location = result["locations"][0]["physicalLocation"]
    assert location["artifactLocation"] == {"uri": "pkg/mod.py", "uriBaseId": "%SRCROOT%"}
    assert location["region"] == {"startLine": 6, "startColumn": 5}
    assert rules[result["ruleIndex"]]["id"] == "TRF001"


def test_help_lists_the_options(tmp_path: Path) -> None:
    text = command("--help", cwd=tmp_path).stdout
    for option in ("--fix", "--diff", "--select", "--extend-select", "--ignore", "--extend-ignore",
                   "--per-file-ignores", "--disable-noqa", "--exclude", "--extend-exclude",
                   "--stdin-display-name", "--jobs", "--config", "--isolated", "--format",
                   "--statistics", "--count", "--exit-zero", "--taskref-spawners",
                   "--taskref-loop-names", "--taskref-timeouts"):
        assert option in text, option
    # which rules a run checks without a selection (a new user of a sweep could not tell)
    assert "on by default: every TRF code but the opt-in TRF006, TRF008 and TRF010" in " ".join(text.split())


def test_console_script_is_installed() -> None:
    assert os.path.exists(os.path.join(os.path.dirname(sys.executable), "flake8-taskref"))


# ---------------------------------------------------- found by review, kept fixed
def test_fix_on_stdin_echoes_a_skipped_file(tmp_path: Path) -> None:
    text = "# flake8: noqa\n" + SOURCE
    proc = command("--fix", "-", cwd=tmp_path, stdin=text)
    assert proc.stdout == text


def test_machine_formats_stay_one_document(tmp_path: Path) -> None:
    (tmp_path / "mod.py").write_text(SOURCE)
    (tmp_path / "setup.cfg").write_text("[flake8]\ncount = True\nstatistics = True\n")
    assert len(json.loads(command("--format", "json", "mod.py", cwd=tmp_path).stdout)) == 1
    assert json.loads(command("--format", "sarif", "mod.py", cwd=tmp_path).stdout)["version"] == "2.1.0"
    assert command("mod.py", cwd=tmp_path).stdout.splitlines()[-1] == "1"


def test_diff_reports_files_that_do_not_parse(tmp_path: Path) -> None:
    (tmp_path / "bad.py").write_text(BROKEN)
    proc = command("--diff", "bad.py", cwd=tmp_path)
    assert proc.returncode == 1 and proc.stdout == ""
    assert "bad.py:4:" in proc.stderr and "E999 SyntaxError" in proc.stderr


def test_per_file_ignores_are_relative_to_the_current_folder_as_in_flake8(tmp_path: Path) -> None:
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "n.py").write_text(SOURCE)
    (tmp_path / "sub" / "m.py").write_text(SOURCE)
    (tmp_path / "setup.cfg").write_text("[flake8]\nper-file-ignores = sub/n.py:TRF001\n")
    for cwd in (tmp_path, tmp_path / "sub"):
        mine = command("--format", _FORMAT, ".", cwd=cwd).stdout
        theirs = flake8(["--select", "TRF", "--format", _FORMAT, "."], cwd=cwd).stdout
        assert mine == theirs


def test_configuration_errors_are_one_line(tmp_path: Path) -> None:
    """A bad value, on the command line or in a file, is one line (the usage
    line came first, as if the command line were malformed); a malformed
    command line gets argparse's usage line and its error."""
    (tmp_path / "mod.py").write_text(SOURCE)
    for args in (["--jobs", "x"], ["--format", "%(path)s %(bogus)s"], ["--format", "xml"]):
        proc = command(*args, "mod.py", cwd=tmp_path)
        assert proc.returncode == 2, proc.stderr
        lines = proc.stderr.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("flake8-taskref: error: --"), lines
    (tmp_path / "setup.cfg").write_text("[flake8]\njobs = x\n")
    proc = command("mod.py", cwd=tmp_path)
    assert (proc.returncode, proc.stderr) == (
        2, "flake8-taskref: error: --jobs: 'x' is neither 'auto' nor a whole number\n")
    for args in (["--bogus"], ["--fix-keep", "sideways"]):
        proc = command(*args, "mod.py", cwd=tmp_path)
        assert proc.returncode == 2, proc.stderr
        lines = proc.stderr.strip().splitlines()
        assert len(lines) == 2 and lines[0].startswith("usage: flake8-taskref ")
        assert lines[1].startswith("flake8-taskref: error: "), lines


def test_diff_applies_with_git(tmp_path: Path) -> None:
    """Headers without './', the file's own line ends (CRLF too)."""
    (tmp_path / "pkg").mkdir()
    crlf = "import asyncio\r\n\r\n\r\nasync def main():\r\n    asyncio.create_task(asyncio.sleep(1))\r\n"
    (tmp_path / "pkg" / "a.py").write_bytes(crlf.encode())
    (tmp_path / "b.py").write_text(SOURCE)
    subprocess.run(["git", "init", "-q"], cwd=tmp_path, check=True)
    script = shutil.which("flake8-taskref", path=os.path.dirname(sys.executable))
    assert script is not None
    patch = subprocess.run([script, "--diff"], cwd=tmp_path, capture_output=True, timeout=120).stdout
    assert b"--- a/pkg/a.py" in patch and b"+++ b/b.py" in patch
    (tmp_path / "fix.patch").write_bytes(patch)
    applied = subprocess.run(["git", "apply", "fix.patch"], cwd=tmp_path, capture_output=True, text=True)
    assert applied.returncode == 0, applied.stderr
    assert command(cwd=tmp_path).stdout == ""
    fixed = (tmp_path / "pkg" / "a.py").read_bytes()
    assert b"_background_tasks.add(" in fixed and fixed.count(b"\n") == fixed.count(b"\r\n") == 10


def test_sarif_uri_of_a_file_outside_the_root(tmp_path: Path) -> None:
    (tmp_path / "in").mkdir()
    (tmp_path / "out dir").mkdir()
    (tmp_path / "out dir" / "m.py").write_text(SOURCE)
    log = json.loads(command("--format", "sarif", "../out dir/m.py", cwd=tmp_path / "in").stdout)
    location = log["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]
    assert location == {"uri": (tmp_path / "out dir" / "m.py").as_uri()}
