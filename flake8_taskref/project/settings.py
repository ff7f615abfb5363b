"""The project view's own settings: the source roots and the cache.  flake8
registers them from ``FLAGS`` (``plugin.py``); the ``flake8-taskref`` command
reads the same names from its configuration (``config.py``), and takes
``--no-cache`` and ``--cache-dir`` too, as Ruff does.

``taskref-src``: the source roots, relative to the project root (where the
configuration file is), default ``.`` and ``src``.  ``taskref-cache-dir``: where
the cache lives, default ``.taskref_cache`` at the project root.
``taskref-no-cache``: no cache at all (nothing is read or written)."""
from __future__ import annotations

import os
from typing import NamedTuple, Optional, Tuple

__all__ = ["FLAGS", "ProjectSettings", "from_values"]

# (flag, default, help, is a switch)
FLAGS: Tuple[Tuple[str, str, str, bool], ...] = (
    (
        "--taskref-src",
        "",
        "Comma-separated source roots where the project's modules are looked up, relative to the "
        "project root (default: . and src, besides the folder above each file's top package).",
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


def from_values(root: str, src: Tuple[str, ...], cache_dir: str, no_cache: bool) -> ProjectSettings:
    """Settings from the option values (``src`` and ``cache_dir`` relative to
    ``root`` unless absolute)."""
    root = os.path.abspath(root)
    roots = tuple(os.path.normpath(os.path.join(root, item)) for item in src)
    folder = None if no_cache else os.path.normpath(os.path.join(root, cache_dir or ".taskref_cache"))
    return ProjectSettings(root, roots, folder)
