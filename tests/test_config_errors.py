"""Bad option values stop flake8 with one clear error, from the command line
and from every kind of config file, and never with a traceback.

The expected shape (argparse's error, exit code 2)::

    usage: flake8 [options] file file ...
    flake8: error: flake8-taskref: --taskref-spawners: empty item in 'a,,b'
"""
from __future__ import annotations

import subprocess
from pathlib import Path
from typing import List, Tuple

import pytest

from tests.conftest import flake8_command

SOURCE = "import asyncio\n\n\nasync def main():\n    asyncio.create_task(asyncio.sleep(1))\n"

DOTTED = ("--taskref-spawners", "--taskref-timeouts")
NAMES = ("--taskref-loop-names",)

# (option, bad value, text the error must contain after "<option>: ")
BAD: List[Tuple[str, str, str]] = []
for _option in DOTTED + NAMES:
    BAD += [
        (_option, "a,,b", "empty item in 'a,,b'"),
        (_option, "1abc", "'1abc' is not a"),
        (_option, "a..b", "'a..b' is not a"),
        (_option, "a-b", "'a-b' is not a"),
    ]
BAD += [
    ("--taskref-spawners", ",", "empty item in ','"),
    ("--taskref-spawners", "good,bad-name", "'bad-name' is not a dotted name"),
    ("--taskref-spawners", ".a", "'.a' is not a dotted name"),
    ("--taskref-timeouts", "ok, ,b", "empty item in 'ok, ,b'"),
    ("--taskref-timeouts", "a.", "'a.' is not a dotted name"),
    ("--taskref-timeouts", "pkg.1mod.f", "'pkg.1mod.f' is not a dotted name"),
    ("--taskref-loop-names", "self.loop", "'self.loop' is not a name"),
]

CONFIG_FILES = ("setup.cfg", "tox.ini", ".flake8")


def _project(tmp_path: Path) -> Path:
    (tmp_path / "mod.py").write_text(SOURCE, encoding="utf-8")
    return tmp_path


def run(args: List[str], cwd: Path) -> subprocess.CompletedProcess:  # type: ignore[type-arg]
    return subprocess.run(
        [*flake8_command(), "--select", "TRF", *args], capture_output=True, text=True, cwd=cwd, timeout=120
    )


def assert_one_clear_error(
    proc: "subprocess.CompletedProcess[str]", option: str, detail: str
) -> None:
    assert proc.returncode == 2, (proc.returncode, proc.stdout, proc.stderr)
    assert "Traceback" not in proc.stderr, proc.stderr
    assert proc.stdout == "", "flake8 linted files despite the bad option"
    errors = [line for line in proc.stderr.splitlines() if "error" in line.lower()]
    assert len(errors) == 1, proc.stderr
    assert errors[0].startswith(f"flake8: error: flake8-taskref: {option}: "), proc.stderr
    assert detail in errors[0], proc.stderr


@pytest.mark.parametrize("option,value,detail", BAD, ids=[f"{o}={v}" for o, v, _ in BAD])
def test_bad_value_on_the_command_line(tmp_path: Path, option: str, value: str, detail: str) -> None:
    proc = run(["--isolated", f"{option}={value}", "mod.py"], cwd=_project(tmp_path))
    assert_one_clear_error(proc, option, detail)


# Every bad value from each kind of config file would be 3x the runs for the
# same code path: setup.cfg gets two bad values per option, the others one.
_IN_SETUP_CFG = {
    ("--taskref-spawners", "a,,b"), ("--taskref-spawners", "pkg.1mod.f"),
    ("--taskref-timeouts", "a..b"), ("--taskref-timeouts", "ok, ,b"),
    ("--taskref-loop-names", "a-b"), ("--taskref-loop-names", "self.loop"),
}
_IN_OTHERS = {
    ("--taskref-spawners", "1abc"),
    ("--taskref-timeouts", "a,,b"),
    ("--taskref-loop-names", "a..b"),
}
CONFIG_CASES = [
    (config, option, value, detail)
    for config in CONFIG_FILES
    for option, value, detail in BAD
    if (option, value) in (_IN_SETUP_CFG if config == "setup.cfg" else _IN_OTHERS)
]


@pytest.mark.parametrize(
    "config,option,value,detail", CONFIG_CASES, ids=[f"{c}:{o}={v}" for c, o, v, _ in CONFIG_CASES]
)
def test_bad_value_in_a_config_file(
    tmp_path: Path, config: str, option: str, value: str, detail: str
) -> None:
    project = _project(tmp_path)
    (project / config).write_text(f"[flake8]\n{option[2:]} = {value}\n", encoding="utf-8")
    proc = run(["mod.py"], cwd=project)
    assert_one_clear_error(proc, option, detail)


def test_bad_value_in_a_multi_line_config_list(tmp_path: Path) -> None:
    project = _project(tmp_path)
    (project / "setup.cfg").write_text(
        "[flake8]\ntaskref-spawners =\n    myapp.spawn,\n    ,\n    other.spawn\n", encoding="utf-8"
    )
    proc = run(["mod.py"], cwd=project)
    assert_one_clear_error(proc, "--taskref-spawners", "empty item")


def test_config_file_passed_with_dash_dash_config(tmp_path: Path) -> None:
    project = _project(tmp_path)
    (project / "custom.ini").write_text("[flake8]\ntaskref-timeouts = a-b\n", encoding="utf-8")
    proc = run(["--config", "custom.ini", "mod.py"], cwd=project)
    assert_one_clear_error(proc, "--taskref-timeouts", "'a-b' is not a dotted name")


def test_inline_comment_in_config_is_reported_not_ignored(tmp_path: Path) -> None:
    """flake8's config parser keeps "# ..." after a value; the error says so."""
    project = _project(tmp_path)
    (project / "setup.cfg").write_text("[flake8]\ntaskref-spawners = myapp.spawn  # ours\n", encoding="utf-8")
    proc = run(["mod.py"], cwd=project)
    assert_one_clear_error(proc, "--taskref-spawners", "'#' is not a dotted name")


def test_command_line_overrides_a_bad_config_value(tmp_path: Path) -> None:
    """Only the value in effect is checked: a good one on the command line wins."""
    project = _project(tmp_path)
    (project / "setup.cfg").write_text("[flake8]\ntaskref-spawners = a,,b\n", encoding="utf-8")
    proc = run(["--taskref-spawners", "myapp.spawn", "mod.py"], cwd=project)
    assert proc.returncode == 1, proc.stderr
    assert "TRF001" in proc.stdout and proc.stderr == ""


@pytest.mark.parametrize(
    "args",
    [
        ["--taskref-spawners", "myapp.tasks.spawn, helpers.fire,"],
        ["--taskref-loop-names", "ioloop,reactor", "--taskref-timeouts", "async_timeout.timeout"],
        ["--taskref-loop-names", "", "--taskref-spawners", ""],
        ["--taskref-spawners", "myapp.spawn\nother.spawn"],
    ],
    ids=["trailing-comma", "all-three", "empty", "newline-separated"],
)
def test_good_values_are_accepted(tmp_path: Path, args: List[str]) -> None:
    proc = run(["--isolated", *args, "mod.py"], cwd=_project(tmp_path))
    assert proc.returncode == 1 and proc.stderr == "", proc.stderr
    assert "TRF001" in proc.stdout


def test_good_multi_line_config_list(tmp_path: Path) -> None:
    project = _project(tmp_path)
    (project / "setup.cfg").write_text(
        "[flake8]\ntaskref-spawners =\n    myapp.spawn,\n    other.spawn,\ntaskref-loop-names = loop\n",
        encoding="utf-8",
    )
    proc = run(["mod.py"], cwd=project)
    assert proc.returncode == 1 and proc.stderr == "", proc.stderr
