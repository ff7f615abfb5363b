"""The README's two commands: the example lints with findings, and .ci/run runs
exactly the test command."""
from __future__ import annotations

import re
import shlex

from tests.harness import REPO, flake8

README = (REPO / "README.md").read_text(encoding="utf-8")
_BLOCK = re.search(r"```sh\n(.*?)```", README, re.S)
assert _BLOCK is not None
COMMANDS = [line for line in _BLOCK.group(1).splitlines() if line and not line.startswith("#")]


def test_readme_opens_with_two_commands() -> None:
    assert README.index("```sh") < README.index("TRF001")
    assert len(COMMANDS) == 2
    assert "pip install" in COMMANDS[0] and "flake8" in COMMANDS[0]
    assert "pip install" in COMMANDS[1] and "pytest" in COMMANDS[1]


def test_example_command_prints_findings() -> None:
    lint = COMMANDS[0].split("&&", 1)[1]
    args = shlex.split(lint)
    assert args[:3] == ["python", "-m", "flake8"]
    proc = flake8(args[3:], cwd=REPO)
    assert proc.returncode == 1, proc.stderr
    codes = {line.split()[1] for line in proc.stdout.splitlines()}
    assert {"TRF001", "TRF002", "TRF003"} <= codes


def test_ci_runs_the_readme_test_command() -> None:
    script = (REPO / ".ci" / "run").read_text(encoding="utf-8")
    assert COMMANDS[1] in script.splitlines()
    assert "set -euo pipefail" in script


def test_ci_runs_in_a_clone_in_an_empty_directory() -> None:
    """A clone with nothing beside it must pass: .ci/run clones HEAD into a fresh
    temporary directory and runs the test command there, with the pre-commit and
    release tests switched on, and CI=true as CI services set it."""
    lines = (REPO / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    assert 'work="$(mktemp -d)"' in lines
    clone = lines.index('git clone --quiet --no-checkout . "$work/flake8-taskref"')
    enter = lines.index('cd "$work/flake8-taskref"')
    assert clone < enter < lines.index(COMMANDS[1])
    assert "export TASKREF_PRECOMMIT=1 TASKREF_RELEASE=1 CI=true" in lines[enter:]


def test_sample_output_is_what_the_command_prints() -> None:
    """The output block after the description is the example command's whole output."""
    block = re.search(r"\n```\n(docs/examples/.*?)```", README, re.S)
    assert block is not None
    args = shlex.split(COMMANDS[0].split("&&", 1)[1])[3:]
    proc = flake8(args, cwd=REPO)
    assert block.group(1) == proc.stdout
    assert len(proc.stdout.splitlines()) == 4
