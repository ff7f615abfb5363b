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


# the TRF006 findings the fixture marks
_MARKED = (DATA / "trf006_never_pruned.py").read_text(encoding="utf-8").count("# error: TRF006")


def _trf006_count(*args: str, cwd: "Path | None" = None) -> int:
    fixture = DATA / "trf006_never_pruned.py"
    proc = flake8([*args, "--format", _FORMAT, str(fixture)], cwd=cwd)
    assert proc.returncode in (0, 1), proc.stderr
    return proc.stdout.count("|TRF006|")


@pytest.mark.parametrize(
    "args",
    [(), ("--select", "TRF"), ("--select", "E,F,W,TRF"), ("--extend-select", "TRF"),
     ("--select", "TRF0"), ("--select", "TRF00"),
     ("--extend-select", "TRF006", "--extend-ignore", "TRF006")],
)
def test_trf006_is_off_unless_named(args: "tuple[str, ...]") -> None:
    """Selecting the prefix (TRF, TRF0) gives the default rules only."""
    assert _trf006_count("--isolated", *args) == 0


@pytest.mark.parametrize(
    "args",
    [("--extend-select", "TRF006"), ("--select", "TRF006"), ("--select", "TRF,TRF006"),
     ("--select", "TRF", "--extend-select", "TRF006"), ("--select", "E,F,W,TRF006")],
)
def test_trf006_is_on_when_named(args: "tuple[str, ...]") -> None:
    assert _trf006_count("--isolated", *args) == _MARKED >= 10


@pytest.mark.parametrize(
    "config, count",
    [("select = E,F,W,TRF\n", 0), ("extend-select = TRF\n", 0),
     ("extend-select = TRF006\n", 1), ("select = E,F,W,TRF,TRF006\n", 1)],
)
def test_trf006_from_config(tmp_path: Path, config: str, count: int) -> None:
    """count: 0 for none, 1 for every marked finding."""
    (tmp_path / "setup.cfg").write_text("[flake8]\n" + config, encoding="utf-8")
    assert _trf006_count(cwd=tmp_path) == count * _MARKED


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
