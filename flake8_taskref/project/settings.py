"""The project view's own settings: the source roots and the cache.  flake8
registers them from ``FLAGS`` (``plugin.py``); the ``flake8-taskref`` command
reads the same names from its configuration (``config.py``), and takes
``--no-cache`` and ``--cache-dir`` too, as Ruff does.

``taskref-src``: the source roots, relative to the folder of the file that
sets them (the current folder on the command line), default ``.`` and ``src``
of the project root.  ``taskref-cache-dir``: where the cache lives, default
``.taskref_cache`` at the project root (``config.flake8_project``: flake8 reads
both as the command does).
``taskref-no-cache``: no cache at all (nothing is read or written).

**Where a project starts** (``config._root``, every face's rule): the folder of
the configuration file flake8 reads, else of the nearest ``pyproject.toml`` if it
holds our table, else (``find_project_root``)
the nearest folder, from the current one up, that holds one of
``PROJECT_MARKERS`` (as Ruff, Black and mypy look for ``pyproject.toml``,
``setup.cfg`` or ``.git``).  Where there is none, there is no project
(``ProjectSettings.lone``): the index reads only the paths being checked (the
folders named are walked, as their files are checked anyway), the other
modules are those the checked files' imports reach (found by name, never by a
walk of the folder around them), and no cache is read or written unless a
cache folder is named on the command line (``docs/configuration.md``)."""
from __future__ import annotations

import os
from typing import NamedTuple, Optional, Sequence, Tuple

__all__ = ["FLAGS", "PROJECT_MARKERS", "ProjectSettings", "find_project_root", "from_values", "lone_paths"]

# (flag, default, help, is a switch)
FLAGS: Tuple[Tuple[str, str, str, bool], ...] = (
    (
        "--taskref-src",
        "",
        "Comma-separated source roots where the project's modules are looked up, relative to the "
        "configuration file's folder, or to the current one on the command line (default: . and src "
        "of the project root, besides the folder above each file's top package).",
        False,
    ),
    (
        "--taskref-cache-dir",
        "",
        "Where flake8-taskref keeps its cache of module summaries and findings "
        "(default: .taskref_cache at the project root).",
        False,
    ),
    (
        "--taskref-no-cache",
        "",
        "Read and write no cache (every run summarises the modules it needs again).",
        True,
    ),
)


class ProjectSettings(NamedTuple):
    """Where the project is and how it is cached."""

    root: str  # the project root: the folder of the configuration file, else the current one
    src: Tuple[str, ...] = ()  # configured source roots (absolute); empty: the defaults
    cache_dir: Optional[str] = None  # None: no cache
    # None: a project.  Outside every project: the paths checked (absolute), all
    # the index reads (``find_project_root``)
    lone: Optional[Tuple[str, ...]] = None


# What makes a folder a project's root when no configuration file is read.
PROJECT_MARKERS = ("pyproject.toml", "setup.cfg", "setup.py", "tox.ini", ".flake8", ".git", ".hg")


def find_project_root(start: str) -> Optional[str]:
    """The nearest folder, from ``start`` up, that holds one of
    ``PROJECT_MARKERS`` (a file, or a folder for ``.git`` and ``.hg``); None
    when there is none: no project."""
    folder = os.path.abspath(start)
    while True:
        for name in PROJECT_MARKERS:
            if os.path.lexists(os.path.join(folder, name)):
                return folder
        parent = os.path.dirname(folder)
        if parent == folder:
            return None
        folder = parent


def lone_paths(paths: Sequence[str], cwd: Optional[str] = None) -> Tuple[str, ...]:
    """The paths checked outside every project, absolute (standard input left
    out: it is no file)."""
    here = os.path.abspath(cwd or os.curdir)
    return tuple(sorted({os.path.normpath(os.path.join(here, path)) for path in paths if path != "-"}))


def from_values(
    root: Optional[str], src: Tuple[str, ...], cache_dir: str, no_cache: bool,
    checked: Sequence[str] = (".",),
) -> ProjectSettings:
    """Settings from the option values (``src`` and ``cache_dir`` relative to
    ``root`` unless absolute); ``root`` None: no project (``checked``: the
    paths being checked; no cache unless ``cache_dir`` names one)."""
    if root is None:
        here = os.getcwd()
        folder = None if no_cache or not cache_dir else os.path.normpath(os.path.join(here, cache_dir))
        return ProjectSettings(here, (), folder, lone_paths(checked))
    root = os.path.abspath(root)
    roots = tuple(os.path.normpath(os.path.join(root, item)) for item in src)
    folder = None if no_cache else os.path.normpath(os.path.join(root, cache_dir or ".taskref_cache"))
    return ProjectSettings(root, roots, folder)
