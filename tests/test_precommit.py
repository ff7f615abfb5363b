"""docs/pre-commit.md, for real: pre-commit in a temporary git repository with a file
that drops a task.  The hooks file is checked in the default suite; the runs are
marked ``precommit`` (opt-in with TASKREF_PRECOMMIT=1, set by .ci/run; they need PyPI
to install the hook environments)."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Dict, Iterator

import pytest

from tests.harness import REPO

BROKEN = '''\
import asyncio


async def main(job):
    asyncio.create_task(job())
'''
FIXED = '''\
import asyncio

_tasks = set()


async def main(job):
    task = asyncio.create_task(job())
    _tasks.add(task)
    task.add_done_callback(_tasks.discard)
'''
GIT_ENV = {"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@t",
           "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@t"}


def test_hooks_file_is_a_valid_manifest() -> None:
    proc = subprocess.run([sys.executable, "-m", "pre_commit", "validate-manifest",
                           str(REPO / ".pre-commit-hooks.yaml")], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    import yaml

    hooks = yaml.safe_load((REPO / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))
    (hook,) = hooks
    assert hook["id"] == "flake8-taskref"
    assert hook["entry"] == "flake8-taskref"
    assert hook["language"] == "python"
    assert hook["types"] == ["python"]
    # the hook's entry is the command's console script
    setup_cfg = (REPO / "setup.cfg").read_text(encoding="utf-8")
    assert "flake8-taskref = flake8_taskref.command.cli:main" in setup_cfg.split("console_scripts", 1)[1]


@pytest.fixture(scope="module")
def pre_commit_home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One cache for the module's runs (each hook environment is installed once)."""
    return tmp_path_factory.mktemp("pre-commit-home")


class Project:
    """A temporary git repository with app.py."""

    def __init__(self, root: Path, home: Path) -> None:
        self.root = root
        self.env: Dict[str, str] = {**os.environ, **GIT_ENV, "PRE_COMMIT_HOME": str(home)}
        self.env.pop("PYTHONPATH", None)
        self.git("init", "-q")

    def git(self, *args: str) -> None:
        subprocess.run(["git", *args], cwd=self.root, env=self.env, check=True,
                       capture_output=True)

    def write(self, name: str, text: str) -> None:
        (self.root / name).write_text(text, encoding="utf-8")
        self.git("add", name)

    def pre_commit(self, *args: str) -> "subprocess.CompletedProcess[str]":
        return subprocess.run([sys.executable, "-m", "pre_commit", *args], cwd=self.root,
                              env=self.env, capture_output=True, text=True, timeout=1200)


@pytest.fixture()
def project(tmp_path: Path, pre_commit_home: Path) -> Iterator[Project]:
    root = tmp_path / "project"
    root.mkdir()
    yield Project(root, pre_commit_home)


LOCAL_FLAKE8 = f'''\
repos:
  - repo: local
    hooks:
      - id: flake8
        name: flake8
        entry: flake8
        language: python
        types: [python]
        require_serial: true
        additional_dependencies: [flake8, "{REPO.as_posix()}"]
        args: [--require-plugins, flake8-taskref]
'''


@pytest.mark.precommit
def test_local_flake8_hook_with_the_plugin(project: Project) -> None:
    """A `repo: local` flake8 hook with the plugin (this checkout) as an additional
    dependency, and the --require-plugins of docs/pre-commit.md."""
    project.write(".pre-commit-config.yaml", LOCAL_FLAKE8)
    project.write("app.py", BROKEN)
    failed = project.pre_commit("run", "--files", "app.py")
    assert failed.returncode == 1, failed.stdout + failed.stderr
    assert "app.py:5:5: TRF001 task returned by asyncio.create_task() is not stored" in failed.stdout
    project.write("app.py", FIXED)
    passed = project.pre_commit("run", "--files", "app.py")
    assert passed.returncode == 0, passed.stdout + passed.stderr
    assert "TRF" not in passed.stdout


def _clone_of_this_checkout(target: Path, env: Dict[str, str]) -> str:
    """pre-commit installs a hook repository from its commits: a clone of this
    checkout with the working tree (tracked and new files) committed on top."""
    subprocess.run(["git", "clone", "-q", str(REPO), str(target)], check=True, env=env)
    files = subprocess.run(["git", "ls-files", "-co", "--exclude-standard"], cwd=REPO,
                           capture_output=True, text=True, check=True).stdout.splitlines()
    for name in files:
        source = REPO / name
        if source.is_file():
            (target / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target / name)
    subprocess.run(["git", "add", "-A"], cwd=target, check=True, env=env)
    subprocess.run(["git", "commit", "-q", "--allow-empty", "-m", "working tree"], cwd=target,
                   check=True, env=env)
    return subprocess.run(["git", "rev-parse", "HEAD"], cwd=target, capture_output=True,
                          text=True, check=True, env=env).stdout.strip()


@pytest.mark.precommit
def test_try_repo_flake8_taskref_hook(project: Project, tmp_path: Path) -> None:
    """`pre-commit try-repo` of this checkout with the flake8-taskref hook; then the
    hook with --fix (docs/pre-commit.md) makes the next run pass."""
    clone = tmp_path / "hook-repo"
    rev = _clone_of_this_checkout(clone, project.env)
    project.write("app.py", BROKEN)
    failed = project.pre_commit("try-repo", str(clone), "flake8-taskref", "--ref", rev,
                                "--files", "app.py")
    assert failed.returncode == 1, failed.stdout + failed.stderr
    assert "TRF001" in failed.stdout
    project.write("app.py", FIXED)
    passed = project.pre_commit("try-repo", str(clone), "flake8-taskref", "--ref", rev,
                                "--files", "app.py")
    assert passed.returncode == 0, passed.stdout + passed.stderr

    project.write("app.py", BROKEN)
    project.write(".pre-commit-config.yaml", f'''\
repos:
  - repo: {clone.as_posix()}
    rev: {rev}
    hooks:
      - id: flake8-taskref
        args: [--fix]
        additional_dependencies: [black]
''')
    fixing = project.pre_commit("run", "--files", "app.py")
    assert fixing.returncode == 1, fixing.stdout + fixing.stderr  # files were modified
    assert "fixed TRF001" in fixing.stdout, fixing.stdout + fixing.stderr
    fixed = (project.root / "app.py").read_text(encoding="utf-8")
    assert fixed != BROKEN
    compile(fixed, "app.py", "exec")
    project.git("add", "app.py")
    again = project.pre_commit("run", "--files", "app.py")
    assert again.returncode == 0, again.stdout + again.stderr
