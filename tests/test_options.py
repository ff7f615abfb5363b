"""Options from the command line and from every config file flake8 reads."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.harness import DATA, _FORMAT, compare, flake8, parse_output

OPTIONS_FIXTURE = DATA / "options_spawners.py"

CONFIGS = {
    "setup.cfg": "[flake8]\nselect = TRF\ntaskref-spawners = myapp.tasks.spawn, helpers.fire\n"
    "taskref-loop-names = ioloop,reactor\n",
    "tox.ini": "[flake8]\nselect = TRF\ntaskref-spawners =\n    myapp.tasks.spawn,\n    helpers.fire,\n"
    "taskref_loop_names = ioloop\n    reactor\n",
    ".flake8": "[flake8]\nselect = TRF\ntaskref_spawners = myapp.tasks.spawn,helpers.fire\n"
    "taskref-loop-names = ioloop, reactor\n",
}


@pytest.mark.parametrize("config", sorted(CONFIGS))
def test_options_from_config_file(tmp_path: Path, config: str) -> None:
    (tmp_path / config).write_text(CONFIGS[config], encoding="utf-8")
    target = tmp_path / OPTIONS_FIXTURE.name
    shutil.copy(OPTIONS_FIXTURE, target)
    proc = flake8(["--format", _FORMAT, target.name], cwd=tmp_path)
    assert proc.returncode == 1, proc.stderr
    compare(OPTIONS_FIXTURE, parse_output(proc.stdout)[target.name])


def test_without_options_the_project_helpers_are_unknown(tmp_path: Path) -> None:
    target = tmp_path / OPTIONS_FIXTURE.name
    shutil.copy(OPTIONS_FIXTURE, target)
    proc = flake8(["--isolated", "--select", "TRF", "--format", _FORMAT, target.name], cwd=tmp_path)
    found = [(line, code) for line, _, code, _ in parse_output(proc.stdout)[target.name]]
    # only the default loop name 'loop' (line 23) is reported
    assert found == [(23, "TRF001")]


def test_trf006_is_off_by_default(tmp_path: Path) -> None:
    fixture = DATA / "trf006_never_pruned.py"
    plain = flake8(["--isolated", "--format", _FORMAT, str(fixture)])
    assert "TRF006" not in plain.stdout
    enabled = flake8(["--isolated", "--extend-select", "TRF006", "--format", _FORMAT, str(fixture)])
    assert enabled.stdout.count("|TRF006|") == 3


def test_version_and_help_list_the_plugin() -> None:
    version = flake8(["--version"])
    assert "flake8-taskref" in version.stdout
    help_text = flake8(["--help"]).stdout
    for option in ("--taskref-spawners", "--taskref-loop-names", "--taskref-timeouts"):
        assert option in help_text


def test_noqa_is_honoured_and_can_be_disabled() -> None:
    fixture = DATA / "noqa.py"
    args = ["--isolated", "--select", "TRF", "--format", _FORMAT, str(fixture)]
    with_noqa = parse_output(flake8(args).stdout)
    assert [(row, code) for row, _, code, _ in with_noqa[str(fixture)]] == [(15, "TRF001")]
    disabled = parse_output(
        flake8(["--isolated", "--disable-noqa", "--select", "TRF", "--format", _FORMAT, str(fixture)]).stdout
    )
    assert [(row, code) for row, _, code, _ in disabled[str(fixture)]] == [
        (10, "TRF001"), (11, "TRF001"), (12, "TRF001"), (15, "TRF001"), (16, "TRF002"),
    ]
