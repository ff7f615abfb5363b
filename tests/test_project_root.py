"""Where a project starts (issue 31, item 4; docs/configuration.md): the
folder of the configuration file read, else the nearest folder from the
current one up with a project's file or ``.git``/``.hg``.  Outside every
project a check costs what the files checked and the modules their imports
reach cost, never the size of the folder around them, and writes no cache."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import List, Tuple

import pytest

from flake8_taskref.project.settings import find_project_root
from tests.test_fix import command
from tests.test_projects import _command, _flake8

HELPERS = "import asyncio\n\n\ndef spawn(coro):\n    return asyncio.create_task(coro)\n"
APP = """\
from helpers import spawn
from .pkg import m1


async def main():
    spawn(work())


async def work():
    pass
"""
FINDING = (6, 5, "TRF001")
# many small modules beside the file checked: a walk of them is what must not happen
MODULES = 3000


def _folder(tmp_path: Path) -> Path:
    folder = tmp_path / "scratch"
    (folder / "pkg").mkdir(parents=True)
    (folder / "helpers.py").write_text(HELPERS)
    (folder / "app.py").write_text(APP)
    for number in range(MODULES):
        (folder / "pkg" / f"m{number}.py").write_text(f"value = {number}\n")
    assert find_project_root(str(folder)) is None  # nothing above the test's folder makes it one
    return folder


def _caches(root: Path) -> List[Path]:
    return [Path(folder) / name for folder, names, _ in os.walk(root) for name in names
            if name == ".taskref_cache"]


def test_a_file_outside_every_project_is_checked_alone(tmp_path: Path) -> None:
    folder = _folder(tmp_path)
    for cwd, name in ((folder, "app.py"), (tmp_path, str(folder / "app.py"))):
        rows = _command(cwd, name)
        assert [row[:3] for row in rows[name]] == [FINDING], rows
        assert "helpers.py:4" in rows[name][0][3]
        rows = _flake8(cwd, name)
        assert [row[:3] for row in rows[name]] == [FINDING], rows
    assert _caches(tmp_path) == []  # no project, no cache


def test_the_index_outside_a_project_reads_the_file_and_what_it_imports(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """In the process: the files the index reads are the file checked and the
    modules its imports name (helpers, pkg, pkg.m1), not the 3,000 beside it."""
    from flake8_taskref.command import runner
    from flake8_taskref.command.cli import build_parser
    from flake8_taskref.project import view as view_module
    from flake8_taskref.project.config import resolve

    folder = _folder(tmp_path)
    (folder / "pkg" / "__init__.py").write_text("")
    monkeypatch.chdir(folder)
    read: List[str] = []
    real = view_module.read_bytes

    def counting(path: str) -> bytes:
        read.append(os.path.relpath(path, folder))
        return real(path)

    monkeypatch.setattr(view_module, "read_bytes", counting)
    view_module._VIEWS.clear()
    settings = resolve(build_parser().parse_args(["-j", "1", "app.py"]))
    assert settings.project.lone == (str(folder / "app.py"),) and settings.project.cache_dir is None
    results = runner.check_all(settings, [])
    assert [len(result.findings) for result in results] == [1]
    reached = {"app.py", "helpers.py", os.path.join("pkg", "__init__.py"), os.path.join("pkg", "m1.py")}
    assert set(read) <= reached
    # the index takes the bytes its search for imports read (issue 31): each
    # file is read once for both, then by the round that looks for the words
    # found (spawn, of helpers.py) in every file, and app.py, which names it,
    # for its summary with it: 9 reads, 13 before (each file read again)
    read.clear()
    view_module._VIEWS.clear()
    view_module.project_view(settings.options, settings.project, settings.exclude).words()
    assert sorted(set(read)) == sorted(reached) and len(read) < 3 * len(reached), read


def test_a_folder_with_git_or_a_project_file_is_a_project(tmp_path: Path) -> None:
    for marker in (".git", "setup.py", "pyproject.toml"):
        project = tmp_path / marker.strip(".")
        (project / "src").mkdir(parents=True)
        (project / marker).mkdir() if marker == ".git" else (project / marker).write_text("")
        assert find_project_root(str(project / "src")) == str(project)
        (project / "src" / "helpers.py").write_text(HELPERS)
        (project / "src" / "app.py").write_text(APP.replace("from .pkg import m1\n", ""))
        rows = _command(project / "src", "app.py")
        assert [row[:3] for row in rows["app.py"]] == [(5, 5, "TRF001")]
        assert _caches(project) == [project / ".taskref_cache"]  # at the project's root


def test_the_editor_server_checks_a_scratch_file_alone(tmp_path: Path) -> None:
    """The server's check of a document outside every project: its findings,
    and no cache written, whatever lies beside it."""
    pytest.importorskip("pygls")
    code = f"""
import sys
from flake8_taskref.server.checking import Projects, check_document
path = {str(_folder(tmp_path) / 'app.py')!r}
report = check_document("file://" + path, path, open(path).read(), 1, Projects(), {str(tmp_path)!r})
print([(f.line, f.col, f.code) for f in report.findings])
"""
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == f"[{FINDING}]"
    assert _caches(tmp_path) == []


@pytest.mark.parametrize("folder", ["build", "dist"])
def test_helpers_in_a_package_named_build_or_dist_are_seen(tmp_path: Path, folder: str) -> None:
    """Issue 31, item 7: the index walks such a folder unless the project's
    excludes leave it out, as flake8 checks its files."""
    (tmp_path / "pyproject.toml").write_text("")
    package = tmp_path / "app" / folder
    package.mkdir(parents=True)
    (tmp_path / "app" / "__init__.py").write_text("")
    (package / "__init__.py").write_text("")
    (package / "helpers.py").write_text(HELPERS.replace("spawn", "start"))
    (tmp_path / "app" / "main.py").write_text(
        f"import asyncio\nfrom app.{folder}.helpers import start\n\n\nasync def main(job):\n"
        "    start(job())\n    await asyncio.create_task(job())\n"
    )
    name = os.path.join("app", "main.py")
    for face in (_command, _flake8):
        rows = face(tmp_path, "app")
        assert [row[:3] for row in rows[name]] == [(6, 5, "TRF001")], rows


@pytest.mark.parametrize("marker", [".git", "setup.py", ".hg"])
def test_the_editor_server_reads_settings_from_the_root_the_index_uses(tmp_path: Path, marker: str) -> None:
    """``project_folder`` (where the editor server reads a document's settings)
    is the project root of a run in the document's folder, by the rule every
    face follows: a project marked only by ``.git``, ``setup.py`` or ``.hg``,
    and a sub-project's ``pyproject.toml`` under a ``.flake8`` at the top, gave
    the document's own folder and the sub-project's before."""
    from flake8_taskref.project.config import project_folder, settings_at

    root = tmp_path / "project"
    (root / "pkg" / "sub").mkdir(parents=True)
    (root / marker).mkdir() if marker.startswith(".") else (root / marker).write_text("")
    document = str(root / "pkg" / "sub" / "m.py")
    assert project_folder(document) == str(root)
    assert settings_at(project_folder(document)).project.root == str(root)
    (root / ".flake8").write_text("[flake8]\nper-file-ignores = pkg/sub/*.py:TRF001\n")
    (root / "pkg" / "pyproject.toml").write_text("[project]\nname = 'pkg'\n")
    assert project_folder(document) == str(root)
    assert "TRF001" not in settings_at(project_folder(document)).codes_for(document)
    assert project_folder(str(_folder(tmp_path) / "app.py")) == str(tmp_path / "scratch")  # no project


def _table_above_a_marker(tmp_path: Path, table: str) -> Path:
    """A project whose root is marked by a ``pyproject.toml`` holding only our
    table, with a sub-folder that holds a ``setup.py`` of its own (a nearer
    marker) and imports a helper of the project's top folder."""
    root = tmp_path / "project"
    (root / "sub").mkdir(parents=True)
    (root / "pyproject.toml").write_text(f"[tool.flake8-taskref]\n{table}")
    (root / "shared.py").write_text(HELPERS)
    (root / "sub" / "setup.py").write_text("")
    (root / "sub" / "app.py").write_text(APP.replace("from helpers import spawn\nfrom .pkg import m1\n",
                                                     "from shared import spawn\n"))
    return root


def _cache_folders(root: Path) -> List[Path]:
    return sorted(Path(folder) / name for folder, names, _ in os.walk(root) for name in names
                  if (Path(folder) / name / "CACHEDIR.TAG").is_file())


@pytest.mark.parametrize("table, args, cache", [
    ("jobs = 1\n", (), ".taskref_cache"),
    ('taskref-cache-dir = "build/taskref"\n', (), os.path.join("build", "taskref")),
    ("jobs = 1\n", ("--taskref-cache-dir=here",), os.path.join("sub", "here")),
])
def test_the_plugin_and_the_command_find_one_root_from_a_sub_folder(
    tmp_path: Path, table: str, args: Tuple[str, ...], cache: str,
) -> None:
    """One rule for every face (issue 31): from a sub-folder with a nearer
    marker, a ``pyproject.toml`` whose only table is ``[tool.flake8-taskref]``
    is the project's root for flake8 as for the command (the plugin took the
    sub-folder: it missed the helper of the top folder and kept a cache of
    its own there), its ``taskref-cache-dir`` is read by both, and a cache
    folder given on the command line is relative to the current folder for
    both (the plugin took it from the root)."""
    root = _table_above_a_marker(tmp_path, table)
    expected_rows = {"app.py": [(5, 5, "TRF001")]}
    command_args = tuple(arg.replace("--taskref-cache-dir", "--cache-dir") for arg in args)
    rows = _command(root / "sub", *command_args, "app.py")
    assert {path: [row[:3] for row in found] for path, found in rows.items()} == expected_rows
    assert _cache_folders(root) == [root / cache]
    shutil.rmtree(root / cache)
    rows = _flake8(root / "sub", *args, "app.py")
    assert {path: [row[:3] for row in found] for path, found in rows.items()} == expected_rows
    assert _cache_folders(root) == [root / cache]
    from flake8_taskref.project.config import project_folder

    assert project_folder(str(root / "sub" / "app.py")) == str(root)  # the editor server's


def test_a_table_the_command_refuses_is_said_once_by_flake8(tmp_path: Path) -> None:
    """flake8 does not stop on a ``pyproject.toml`` it does not read itself:
    the plugin says what is wrong with our table, once, and reads the rest
    (the command stops on it, exit 2)."""
    root = _table_above_a_marker(tmp_path, "jobs = [1\n")
    proc = subprocess.run([sys.executable, "-m", "flake8", "--select", "TRF", "app.py"], cwd=root / "sub",
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr.count("flake8-taskref: ") == 1 and "pyproject.toml" in proc.stderr, proc.stderr
    assert command("app.py", cwd=root / "sub").returncode == 2


WHEEL_TOOL = """\
import asyncio

from app.util import spawn


async def act():
    spawn(work())


async def work():
    await asyncio.sleep(1)
"""


@pytest.mark.parametrize("project", ["none", "above", "inside"])
def test_a_namespace_package_imports_its_siblings_by_their_full_name(tmp_path: Path, project: str) -> None:
    """A wheel's folder (a new user's run: browser-use's ``tools/`` has no
    ``__init__.py``): ``app/tools/app/x.py`` imports ``app.util``, which Python
    finds from the folder above the package ``app``.  Outside every project the
    finder had only the folder above the importer's top package: the helper was
    not found and its calls were missed; inside a project whose source roots
    are elsewhere (``lib/``, not configured), the same.  The nearest folder named
    ``app`` (``tools/app``) has no ``util`` beside it: passed over.  A module
    above the project's root is not taken (the index does not read it)."""
    top = tmp_path / "wheel"
    package = top / "lib" / "app" if project == "inside" else top / "app"
    (package / "tools" / "app").mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "util.py").write_text(HELPERS)
    importer = package / "tools" / "app" / "x.py"
    importer.write_text(WHEEL_TOOL)
    if project == "inside":
        (top / "pyproject.toml").write_text("")
    cwd = package / "tools" if project == "above" else top
    if project == "above":  # the project is the folder of the importer's package only
        (cwd / "pyproject.toml").write_text("")
    name = os.path.relpath(importer, cwd)
    for where, checked in ((cwd, name), (tmp_path, str(importer))):
        # (from ``tmp_path`` no project is found: the file is checked alone)
        expected = [] if project == "above" and where == cwd else [(7, 5, "TRF001")]
        for rows in (_command(where, checked, "--no-cache"), _flake8(where, checked, "--taskref-no-cache")):
            assert [row[:3] for row in rows.get(checked, [])] == expected, rows
            assert not expected or "util.py:4" in rows[checked][0][3]
    (package / "util.py").write_text(HELPERS.replace("return asyncio", "asyncio"))
    for rows in (_command(cwd, name, "--no-cache"), _flake8(cwd, name, "--taskref-no-cache")):
        assert rows.get(name, []) == [], rows
