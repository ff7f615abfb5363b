"""Where the project's modules are: the source roots, and the file of a module.

A module of the project is a ``.py`` file (or a package's ``__init__.py``) under
one of its **source roots**: the directory above the checked file's top package
(the chain of ``__init__.py`` above it), then the configured roots
(``taskref-src``, relative to the project root), by default the project root
itself and its ``src`` folder, as Ruff's ``src`` does.  A module is looked up in
that order; the first root that has it wins, as on ``sys.path``.  A name found
under none of them is looked for, last, above the nearest folder around the
importer that bears the name's first part: a module in a folder without
``__init__.py`` (a namespace package, as a wheel may ship) imports its siblings
by their full name (``from app.util import spawn`` in ``app/tools/x.py``), which
Python finds from the folder above ``app``.

Installed packages (``site-packages``, the interpreter's ``sys.path``) are not
modules of the project: a third-party helper that spawns is named in
``taskref-spawners`` instead (``docs/configuration.md`` says why).
"""
from __future__ import annotations

import os
from stat import S_ISREG
from typing import Callable, Dict, Iterable, Iterator, List, Optional, Sequence, Set, Tuple

__all__ = ["DEFAULT_SRC", "package_root", "project_roots", "Finder", "walk_modules", "module_name_in"]

DEFAULT_SRC: Tuple[str, ...] = (".", "src")
# Folders never walked for modules (beside flake8's excludes, which the
# project's configuration sets): version control, caches, installed packages,
# and any folder that is a virtual environment.  A ``build`` or ``dist`` folder
# is walked unless excluded, as flake8 checks its files (a project's helpers
# may live in a package named so).
_SKIPPED = frozenset({".git", ".hg", ".svn", ".bzr", "CVS", "__pycache__", ".tox", ".nox", ".eggs",
                      ".mypy_cache", ".pytest_cache", ".ruff_cache", ".taskref_cache", "node_modules",
                      "site-packages", "dist-packages"})


def package_root(path: str) -> str:
    """The directory above the top package holding ``path`` (the file's own
    directory when it is in no package)."""
    folder = os.path.dirname(os.path.abspath(path))
    while os.path.isfile(os.path.join(folder, "__init__.py")):
        parent = os.path.dirname(folder)
        if parent == folder:
            break
        folder = parent
    return folder


def project_roots(project_root: str, configured: Sequence[str] = ()) -> Tuple[str, ...]:
    """The configured source roots (default ``.`` and ``src``), absolute, those
    that exist, without repeats."""
    roots: List[str] = []
    for root in configured or DEFAULT_SRC:
        path = os.path.normpath(os.path.join(project_root, root))
        if os.path.isdir(path) and path not in roots:
            roots.append(path)
    return tuple(roots)


class Finder:
    """Finds a module's file under an ordered list of roots (answers cached),
    the first of which is the folder above the importer's top package; then
    above the nearest folder, from that one up, named as the name's first part
    (the module docstring)."""

    def __init__(self, within: Optional[Tuple[str, ...]] = None) -> None:
        self._found: Dict[Tuple[Tuple[str, ...], str], Optional[str]] = {}
        # in a project, the folders the index walks: a module found above a
        # folder named as the name's first part must lie under one of them (a
        # module the index never reads would make a file's findings depend on
        # which other modules happen to define a spawner of its name)
        self._within = within

    def find(self, name: str, roots: Tuple[str, ...]) -> Optional[str]:
        key = (roots, name)
        if key not in self._found:
            self._found[key] = self._find(name, roots)
        return self._found[key]

    def _find(self, name: str, roots: Tuple[str, ...]) -> Optional[str]:
        parts = name.split(".")
        if not all(part.isidentifier() for part in parts):
            return None
        for root in roots:
            found = _module_under(root, parts)
            if found is not None:
                return found
        folder = roots[0] if roots else ""
        while folder:
            parent = os.path.dirname(folder)
            if os.path.basename(folder) == parts[0] and parent not in roots and self._inside(parent):
                found = _module_under(parent, parts)
                if found is not None:
                    return found
            if parent == folder:
                break
            folder = parent
        return None

    def _inside(self, folder: str) -> bool:
        within = self._within
        return within is None or any(folder == root or folder.startswith(root + os.sep) for root in within)


def _module_under(root: str, parts: List[str]) -> Optional[str]:
    base = os.path.join(root, *parts)
    package = os.path.join(base, "__init__.py")
    if os.path.isfile(package):
        return package
    if os.path.isfile(base + ".py"):
        return base + ".py"
    return None


def module_name_in(path: str, root: str) -> Optional[str]:
    """The dotted name of ``path`` under ``root`` (``root/app/util.py`` ->
    ``app.util``), None if it is not under it or not made of identifiers."""
    relative = os.path.relpath(os.path.abspath(path), root)
    if relative.startswith(os.pardir) or not relative.endswith(".py"):
        return None
    parts = relative[:-3].split(os.sep)
    if parts[-1] == "__init__":
        parts.pop()
    if not parts or not all(part.isidentifier() for part in parts):
        return None
    return ".".join(parts)


def _skipped_folder(name: str, path: str) -> bool:
    """A folder the walk never enters, nor reaches through imports: version
    control, caches (``_SKIPPED``), hidden folders, ``*.egg-info``, and
    virtual environments (a ``pyvenv.cfg`` in it)."""
    return (name in _SKIPPED or name.startswith(".") or name.endswith(".egg-info")
            or os.path.isfile(path + os.sep + "pyvenv.cfg"))


def walk_modules(
    roots: Iterable[str], excluded: Optional[Callable[[str], bool]] = None,
    pruned: Optional[List[str]] = None,
) -> Iterator[Tuple[str, os.stat_result]]:
    """Every regular ``.py`` file under the roots (each once) with its status,
    in a stable order, skipping version control, caches, virtual environments,
    links to folders and what ``excluded(path)`` rejects (those folders and
    ``.py`` files, and the links to folders, are added to ``pruned``: the
    modules an import names there are reached from their importers,
    ``ProjectView._index``)."""
    seen: Set[str] = set()
    for root in roots:
        if root.endswith(".py") and not os.path.isdir(root):  # a file checked outside every project
            try:
                status = os.stat(root)
            except OSError:
                continue
            if S_ISREG(status.st_mode) and root not in seen:
                seen.add(root)
                yield root, status
            continue
        stack = [root]
        while stack:
            folder = stack.pop()
            try:
                with os.scandir(folder) as entries:
                    listed = sorted(entries, key=lambda entry: entry.name)
            except OSError:
                continue
            folders = []
            prefix = folder if folder.endswith(os.sep) else folder + os.sep
            for entry in listed:
                name = entry.name
                try:
                    if entry.is_dir(follow_symlinks=False):
                        path = prefix + name
                        if _skipped_folder(name, path):
                            continue
                        if excluded is not None and excluded(path):
                            if pruned is not None:
                                pruned.append(path)
                            continue
                        folders.append(path)
                        continue
                    if pruned is not None and entry.is_symlink() and entry.is_dir():
                        # a link to a folder: not walked (as flake8 and Ruff
                        # walk), but a module an import names through it is
                        # found, as Python imports it (as in an excluded one)
                        path = prefix + name
                        if not _skipped_folder(name, path):
                            pruned.append(path)
                        continue
                    if not name.endswith(".py"):
                        continue
                    path = prefix + name
                    if path in seen:
                        continue
                    if excluded is not None and excluded(path):
                        if pruned is not None:
                            pruned.append(path)
                        continue
                    status = entry.stat()  # a link to a file: its file's
                except OSError:
                    continue
                if S_ISREG(status.st_mode):
                    seen.add(path)
                    yield path, status
            stack.extend(reversed(folders))
