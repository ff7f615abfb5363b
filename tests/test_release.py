"""The release: metadata (default suite), and (marked ``release``, opt-in with
TASKREF_RELEASE=1, set by .ci/run) an sdist and a wheel built with `python -m build`,
checked with `twine check --strict`, and the wheel installed into a fresh venv."""
from __future__ import annotations

import configparser
import os
import subprocess
import sys
import tarfile
import venv
import zipfile
from email.parser import Parser
from pathlib import Path
from typing import Dict

import pytest

from flake8_taskref import __version__
from tests.harness import REPO

NAME = "flake8_taskref"


def _setup_cfg() -> configparser.ConfigParser:
    config = configparser.ConfigParser()
    config.read(REPO / "setup.cfg", encoding="utf-8")
    return config


def test_metadata() -> None:
    meta = _setup_cfg()["metadata"]
    assert meta["version"] == "attr: flake8_taskref.__version__"
    classifiers = set(meta["classifiers"].split("\n"))
    assert {"Framework :: Flake8", "Framework :: AsyncIO", "Typing :: Typed"} <= classifiers
    assert "asyncio" in meta["keywords"] and "flake8" in meta["keywords"]
    urls = dict(line.split(" = ", 1) for line in meta["project_urls"].strip().split("\n"))
    assert {"Documentation", "Changelog", "Issues", "Source"} <= set(urls)
    site = (REPO / "mkdocs.yml").read_text(encoding="utf-8")
    assert f"site_url: {urls['Documentation']}" in site
    assert f"repo_url: {urls['Source']}" in site
    hook_recipe = (REPO / "docs" / "pre-commit.md").read_text(encoding="utf-8")
    # until the release is tagged, the recipe pins a commit
    assert f"- repo: {urls['Source']}\n    rev: COMMIT " in hook_recipe
    assert (REPO / NAME / "py.typed").is_file()


@pytest.fixture(scope="module")
def dist(tmp_path_factory: pytest.TempPathFactory) -> Dict[str, Path]:
    out = tmp_path_factory.mktemp("dist")
    proc = subprocess.run([sys.executable, "-m", "build", "--outdir", str(out), str(REPO)],
                          capture_output=True, text=True, timeout=900)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    (wheel,) = out.glob("*.whl")
    (sdist,) = out.glob("*.tar.gz")
    return {"wheel": wheel, "sdist": sdist}


@pytest.mark.release
def test_twine_check_strict(dist: Dict[str, Path]) -> None:
    proc = subprocess.run([sys.executable, "-m", "twine", "check", "--strict",
                           str(dist["wheel"]), str(dist["sdist"])],
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stdout.count("PASSED") == 2, proc.stdout


@pytest.mark.release
def test_wheel_contents(dist: Dict[str, Path]) -> None:
    assert dist["wheel"].name == f"{NAME}-{__version__}-py3-none-any.whl"
    with zipfile.ZipFile(dist["wheel"]) as wheel:
        names = set(wheel.namelist())
        info = f"{NAME}-{__version__}.dist-info"
        metadata = Parser().parsestr(wheel.read(f"{info}/METADATA").decode("utf-8"))
        entry_points = wheel.read(f"{info}/entry_points.txt").decode("utf-8")
    assert f"{NAME}/py.typed" in names
    assert f"{NAME}/__init__.py" in names
    assert not any(n.startswith(("tests/", "docs/", "benchmarks/")) for n in names)
    assert "TRF = flake8_taskref.plugin:TaskRefPlugin" in entry_points
    assert "flake8-taskref = flake8_taskref.command.cli:main" in entry_points
    assert "taskref = flake8_taskref.runtime.pytest_plugin" in entry_points
    for sub in ("analysis", "command", "fix", "runtime"):
        assert f"{NAME}/{sub}/__init__.py" in names, sub
    assert metadata["Version"] == __version__
    classifiers = set(metadata.get_all("Classifier"))
    assert {"Framework :: Flake8", "Framework :: AsyncIO", "Typing :: Typed"} <= classifiers
    urls = {u.split(",")[0] for u in metadata.get_all("Project-URL")}
    assert {"Documentation", "Changelog", "Issues"} <= urls


@pytest.mark.release
def test_sdist_contents(dist: Dict[str, Path]) -> None:
    root = f"{NAME}-{__version__}"
    with tarfile.open(dist["sdist"]) as sdist:
        names = set(sdist.getnames())
    for path in ("LICENSE", "CHANGELOG.md", "CONTRIBUTING.md", "README.md", "mkdocs.yml", "tox.ini",
                 ".pre-commit-hooks.yaml", f"{NAME}/py.typed", "tests/conftest.py",
                 "tests/data/cases/broken_service.py", "docs/index.md",
                 "docs/rules/TRF001.md", "docs/examples/service.py"):
        assert f"{root}/{path}" in names, path
    tracked = subprocess.run(["git", "ls-files", "tests", "docs"], cwd=REPO,
                             capture_output=True, text=True)
    if tracked.returncode == 0 and tracked.stdout:
        missing = [p for p in tracked.stdout.splitlines() if f"{root}/{p}" not in names]
        assert missing == []
    assert not any("__pycache__" in n or n.endswith(".pyc") for n in names)


@pytest.mark.release
def test_wheel_installs_and_lints(dist: Dict[str, Path], tmp_path: Path) -> None:
    """Into a fresh venv (flake8 comes from PyPI; pytest too, for the pytest
    option's entry point), away from this checkout."""
    env_dir = tmp_path / "venv"
    venv.create(env_dir, with_pip=True)
    python = env_dir / ("Scripts" if os.name == "nt" else "bin") / "python"
    install = subprocess.run([str(python), "-m", "pip", "install", "--quiet", str(dist["wheel"]), "pytest"],
                             capture_output=True, text=True, timeout=900)
    assert install.returncode == 0, install.stdout + install.stderr
    work = tmp_path / "work"
    work.mkdir()
    (work / "service.py").write_bytes((REPO / "docs" / "examples" / "service.py").read_bytes())
    clean = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}
    version = subprocess.run([str(python), "-m", "flake8", "--version"], cwd=work,
                             capture_output=True, text=True, env=clean)
    assert version.returncode == 0, version.stderr
    assert f"flake8-taskref: {__version__}" in " ".join(version.stdout.split())
    where = subprocess.run([str(python), "-c", "import flake8_taskref; print(flake8_taskref.__file__)"],
                           cwd=work, capture_output=True, text=True, env=clean)
    assert str(env_dir) in where.stdout, where.stdout  # the installed copy, not the checkout
    lint = subprocess.run([str(python), "-m", "flake8", "--isolated", "--select", "TRF", "service.py"],
                          cwd=work, capture_output=True, text=True, env=clean)
    assert lint.returncode == 1, lint.stderr
    assert lint.stdout.splitlines()[0].startswith(
        "service.py:14:9: TRF001 task returned by asyncio.create_task() is not stored")
    assert len(lint.stdout.splitlines()) == 4
    # every entry point of the wheel loads from the installed copy
    load = ("import importlib.metadata as m\n"
            "eps = m.entry_points()\n"
            "for group in ('flake8.extension', 'console_scripts', 'pytest11'):\n"
            "    found = eps.select(group=group) if hasattr(eps, 'select') else eps.get(group, [])\n"
            "    for ep in found:\n"
            "        if ep.value.startswith('flake8_taskref'):\n"
            "            obj = ep.load()\n"
            "            print(group, ep.name, getattr(obj, '__module__', None) or obj.__name__)\n")
    loaded = subprocess.run([str(python), "-c", load], cwd=work, capture_output=True, text=True, env=clean)
    assert loaded.returncode == 0, loaded.stderr
    assert sorted(loaded.stdout.splitlines()) == [
        "console_scripts flake8-taskref flake8_taskref.command.cli",
        "flake8.extension TRF flake8_taskref.plugin",
        "pytest11 taskref flake8_taskref.runtime.pytest_plugin",
    ]
    command = subprocess.run([str(python.parent / "flake8-taskref"), "--isolated", "service.py"],
                             cwd=work, capture_output=True, text=True, env=clean)
    assert command.returncode == 1 and len(command.stdout.splitlines()) == 4, command.stdout + command.stderr
