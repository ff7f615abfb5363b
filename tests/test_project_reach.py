"""What a file's imports reach where the project's walk does not go (issue 31,
items 7 and 8, attacked as a new user would): a folder the project excludes, a
link to a folder (outside the project, or a loop), and what may lie there (a
named pipe, ``/dev/zero``, a folder named ``x.py``, a file that cannot be
read, a relative import beyond the top package, star imports, imports written
over several lines).  Through the console script and the installed flake8,
each run compared with a run without a cache; nothing is written outside the
project (docs/reliability.md, "What a file's imports reach")."""
from __future__ import annotations

import os
import stat
from pathlib import Path
from types import SimpleNamespace
from typing import Any, Callable, Dict, List, Tuple

import pytest

from flake8_taskref.project.settings import find_project_root
from tests.test_projects import _command, _flake8, _write

HELPER = "import asyncio\n\n\ndef spawn(coro):\n    return asyncio.create_task(coro)\n"
MAIN = ("import asyncio\n\nfrom tools.helpers import spawn\n\n\nasync def work():\n    pass\n\n\n"
        "async def main():\n    spawn(work())\n")
MAIN_PY = os.path.join("app", "main.py")
# the finding of MAIN's last line, however its import is written (the line counted from the end)
SPAWN = "    spawn(work())\n"


def _row(text: str) -> List[Tuple[int, int, str]]:
    return [(text.splitlines(keepends=True).index(SPAWN) + 1, 5, "TRF001")]


def _project(tmp_path: Path, main: str = MAIN, exclude: bool = True) -> Path:
    """A project whose ``tools`` package is excluded (flake8's
    ``extend-exclude``) and imported by ``app/main.py``; ``tools`` is left to
    the caller."""
    project = tmp_path / "project"
    (project / "app").mkdir(parents=True)
    (project / "setup.cfg").write_text("[flake8]\nextend-exclude = tools\n" if exclude else "[flake8]\n")
    (project / "app" / "__init__.py").write_text("")
    (project / "app" / "main.py").write_text(main)
    return project


def _faces(project: Path) -> Dict[str, List[Tuple[int, int, str]]]:
    """The findings of app/main.py through each face, cold and warm, all equal
    to a run without a cache (asserted); the command's returned."""
    none = _command(project, "--no-cache", ".")
    for face in (_command, _command, _flake8):  # cold, warm, flake8 on the cache
        assert face(project, ".") == none, face
    assert _flake8(project, "--taskref-no-cache", ".") == none
    return {path: [row[:3] for row in rows] for path, rows in none.items()}


def test_a_star_chain_through_an_excluded_package_is_followed(tmp_path: Path) -> None:
    """``from tools import spawn``, ``tools/__init__.py`` star-imports
    ``.mid`` (a relative import, which names no excluded folder), ``mid``
    star-imports ``tools.helpers``: found (the index once passed over the
    relative import of a module it had reached there: a miss)."""
    main = MAIN.replace("from tools.helpers import", "from tools import")
    project = _project(tmp_path, main)
    _write(project / "tools", {"__init__.py": "from .mid import *\n",
                               "mid.py": "from tools.helpers import *\n", "helpers.py": HELPER})
    assert _faces(project) == {MAIN_PY: _row(main)}


@pytest.mark.parametrize("written", [
    "from tools.helpers import (\n    spawn,\n)",
    "from tools.helpers import (  # the helper\n    fire as fire,  # another\n    spawn,\n)",
    "from tools.helpers \\\n    import spawn",
    "import os; from tools.helpers import spawn",
    "from tools.helpers import(spawn)",
])
def test_an_import_written_over_lines_reaches_an_excluded_module(written: str, tmp_path: Path) -> None:
    """The imports that name an excluded module are read as Python reads them:
    a parenthesised list over several lines, a backslash, a statement after a
    semicolon (each was a miss: only ``from a import b, c`` on one line was)."""
    main = MAIN.replace("from tools.helpers import spawn", written)
    project = _project(tmp_path, main)
    _write(project / "tools", {"__init__.py": "", "helpers.py": HELPER + "\n\ndef fire():\n    pass\n"})
    assert _faces(project) == {MAIN_PY: _row(main)}


def test_a_file_outside_every_project_reaches_a_parenthesised_import(tmp_path: Path) -> None:
    """Outside every project the index reads what the file's imports name:
    a parenthesised import too (a miss before)."""
    folder = tmp_path / "scratch"
    folder.mkdir()
    main = MAIN.replace("from tools.helpers import spawn", "from helpers import (\n    spawn,\n)")
    (folder / "main.py").write_text(main)
    (folder / "helpers.py").write_text(HELPER)
    assert find_project_root(str(folder)) is None
    for face in (_command, _flake8):
        assert [row[:3] for row in face(folder, "main.py")["main.py"]] == _row(main), face


@pytest.mark.parametrize("exclude", [True, False], ids=["excluded", "not-excluded"])
def test_a_link_to_a_folder_outside_is_not_walked_but_an_import_finds_its_module(
    exclude: bool, tmp_path: Path,
) -> None:
    """``tools`` a link to a folder outside the project: its files are not
    walked (as flake8 and Ruff walk: a module there with a dropped task of its
    own is not reported), but the module an import names there is found, as
    Python imports it, whether or not another module of the project defines
    a function of the same name (before, the finding came only when one did:
    the check followed the link, the index did not).  Nothing is written
    there."""
    project = _project(tmp_path, exclude=exclude)
    outside = tmp_path / "outside" / "tools"
    _write(outside, {"__init__.py": "", "helpers.py": HELPER,
                     "dropped.py": "import asyncio\n\n\nasync def go(c):\n    asyncio.create_task(c)\n"})
    (project / "tools").symlink_to(outside, target_is_directory=True)
    before = sorted(path.name for path in outside.rglob("*"))
    assert _faces(project) == {MAIN_PY: _row(MAIN)}
    (project / "app" / "util.py").write_text(HELPER)  # a function of the same name elsewhere: the same
    assert _faces(project) == {MAIN_PY: _row(MAIN)}
    assert sorted(path.name for path in outside.rglob("*")) == before


def _loop(project: Path) -> None:
    _write(project / "tools", {"__init__.py": "", "helpers.py": HELPER})
    (project / "tools" / "tools").symlink_to("..", target_is_directory=True)  # tools/tools/tools/... = tools/


def _self_loop(project: Path) -> None:
    (project / "tools").symlink_to("tools")


def _pipe(project: Path) -> None:
    _write(project / "tools", {"__init__.py": ""})
    os.mkfifo(project / "tools" / "helpers.py")


def _pipes(project: Path) -> None:
    (project / "tools" / "helpers").mkdir(parents=True)
    os.mkfifo(project / "tools" / "__init__.py")
    os.mkfifo(project / "tools" / "helpers" / "__init__.py")


def _zero(project: Path) -> None:
    _write(project / "tools", {"__init__.py": ""})
    (project / "tools" / "helpers.py").symlink_to("/dev/zero")


def _folder_named_py(project: Path) -> None:
    _write(project / "tools", {"__init__.py": ""})
    (project / "tools" / "helpers.py").mkdir()


def _beyond(project: Path) -> None:
    _write(project / "tools", {"__init__.py": "", "helpers.py": HELPER})
    main = project / "app" / "main.py"
    main.write_text(main.read_text().replace("from tools.helpers", "from ...tools.helpers"))


def _star_cycle(project: Path) -> None:
    _write(project / "tools", {"__init__.py": "from .mid import *\nfrom tools import *\n",
                               "mid.py": "from tools import *\nfrom .mid import *\n"})
    main = project / "app" / "main.py"
    main.write_text(main.read_text().replace("from tools.helpers", "from tools"))


# (what is in the excluded ``tools``, the findings of app/main.py)
HELD: Dict[str, Tuple[Callable[[Path], None], List[Tuple[int, int, str]]]] = {
    "a link loop": (_loop, _row(MAIN)),  # tools.tools.tools.helpers is tools/helpers.py, as Python finds it
    "a link to itself": (_self_loop, []),
    "a named pipe": (_pipe, []),
    "named pipes as packages": (_pipes, []),
    "a link to /dev/zero": (_zero, []),
    "a folder named helpers.py": (_folder_named_py, []),
    "a relative import beyond the top package": (_beyond, []),
    "a cycle of star imports": (_star_cycle, []),
}


@pytest.mark.parametrize("name", sorted(HELD))
def test_what_an_import_may_meet_there_is_no_crash_nor_hang(name: str, tmp_path: Path) -> None:
    """A guard (each held on the code before): no crash, no hang (the runs'
    timeout), the same lines cold, warm and without a cache; a module that is
    no regular file is never read (nothing known of it: silent)."""
    main = MAIN.replace("tools.helpers", "tools.tools.tools.helpers") if name == "a link loop" else MAIN
    project = _project(tmp_path, main)
    setup, rows = HELD[name]
    setup(project)
    assert _faces(project) == ({MAIN_PY: rows} if rows else {})


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() == 0, reason="root reads any file")
def test_an_excluded_module_that_cannot_be_read_is_silent(tmp_path: Path) -> None:
    """A module an import names that the user cannot read (or whose folder
    cannot be listed) is a module nothing is known of: silent, no E902."""
    project = _project(tmp_path)
    _write(project / "tools", {"__init__.py": "", "helpers.py": HELPER})
    (project / "tools" / "helpers.py").chmod(0)
    try:
        assert _faces(project) == {}
    finally:
        (project / "tools" / "helpers.py").chmod(stat.S_IRUSR | stat.S_IWUSR)


def test_the_cache_of_an_older_index_is_not_read(monkeypatch: pytest.MonkeyPatch) -> None:
    """What the index keeps (the names that point into excluded folders, by
    importer) is made by the project view's own modules: a checkout whose
    index code changed reads no entry the older code wrote (a warm run kept
    a miss of the older code's reading of imports until the importer
    changed), as for the analysis's code."""
    from flake8_taskref.analysis.options import Options
    from flake8_taskref.project import summarising, view

    before = view.cache_namespace(Options.build())
    real = os.stat

    def newer(path: Any, *args: Any, **kwargs: Any) -> Any:
        status = real(path, *args, **kwargs)
        if os.path.abspath(str(path)) == os.path.abspath(summarising.__file__):
            # (all cache_namespace reads of it)
            return SimpleNamespace(st_size=status.st_size, st_mtime_ns=status.st_mtime_ns + 1)
        return status

    monkeypatch.setattr(os, "stat", newer)
    assert view.cache_namespace(Options.build()) != before
