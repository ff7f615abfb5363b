"""A document's findings: the one place where the server computes them.

``check_document`` checks the text the editor holds exactly as the
``flake8-taskref`` command checks a file with that text, run in the document's
project root (``project.config.project_folder``: the root the project's index
uses, found by the rule of every face) without options: the same
settings (``project.config.settings_at``, read again when a configuration file
changes: ``Projects``), the same exclusion (a file the command's run on the
project passes over, because it or a folder on its way is excluded, is not
checked: ``project.files.passed_over``), the same text shortcut and
``# flake8: noqa`` (``project.check.must_parse``, ``skips_file``), and the
same ``project.check.check_text``.  Nothing of the analysis or of flake8's
rules is repeated here.

``check_text`` checks it through the project view (``project/view.py``): the
other modules of the project are read from disk (or, for one the editor holds
unsaved, from its text), with the command's and flake8's cache; the report
names the files of the modules its findings consulted (``Report.uses``), so
that the server checks again the documents that use a module when it changes
(``lsp.TaskRefServer``).
"""
from __future__ import annotations

import os
from typing import Dict, FrozenSet, List, NamedTuple, Optional, Tuple, Union

from flake8_taskref.project.check import (
    Finding,
    Site,
    check_text,
    collector_paused,
    must_parse,
    skips_file,
    split_lines,
)
from flake8_taskref.project.config import ConfigError, Settings, config_stamp, project_folder, settings_at
from flake8_taskref.project.files import passed_over
from flake8_taskref.project.settings import find_project_root
from flake8_taskref.project.view import project_view

__all__ = ["Projects", "Report", "check_document"]

_Stamp = Tuple[Tuple[str, int, int, int], ...]


class Projects:
    """The settings of each project folder, read once and again when one of
    the files they are read from changes (``config_stamp``), for checking and
    for fixing (which reads the line length of Ruff or Black too)."""

    def __init__(self) -> None:
        self._cache: Dict[Tuple[str, bool], Tuple[_Stamp, Union[Settings, ConfigError]]] = {}
        # a document folder's project folder, by what it is found from
        self._folders: Dict[str, Tuple[Tuple[_Stamp, Optional[str]], str]] = {}
        self._options: Dict[str, str] = {}  # the editor's settings, as options of the command

    def set_options(self, options: Dict[str, str]) -> bool:
        """The editor's settings (``select``, ``extend-select``,
        ``taskref-spawners``), applied over each project's files as the
        command's options are; whether they changed."""
        if options == self._options:
            return False
        self._options = dict(options)
        self.forget()
        return True

    def settings(self, folder: str, fixing: bool = False) -> Settings:
        """The settings of a run in ``folder``; raises ConfigError."""
        stamp = config_stamp(folder)
        cached = self._cache.get((folder, fixing))
        if cached is None or cached[0] != stamp:
            try:
                found: Union[Settings, ConfigError] = settings_at(folder, fixing, self._options)
            except ConfigError as exc:
                found = exc
            cached = (stamp, found)
            self._cache[(folder, fixing)] = cached
        if isinstance(cached[1], ConfigError):
            raise cached[1]
        return cached[1]

    def folder(self, path: Optional[str], fallback: str) -> str:
        """``document_folder``, found again only when a configuration file in
        the document's folder or above it, or the nearest folder with a
        project's marker, changes."""
        start = os.path.dirname(os.path.abspath(_document_file(path, fallback)))
        key = (config_stamp(start), find_project_root(start))
        cached = self._folders.get(start)
        if cached is None or cached[0] != key:
            cached = self._folders[start] = (key, document_folder(path, fallback))
        return cached[1]

    def forget(self) -> None:
        """Read every setting again at its next use."""
        self._cache.clear()
        self._folders.clear()


class Report(NamedTuple):
    """One check of one version of a document."""

    version: Optional[int]
    text: str  # the text checked
    path: str  # the file's path as check_text got it (absolute), or the document's URI
    folder: str  # the project folder whose settings were read
    lines: List[str]  # the text's lines as flake8 reads them (positions of the findings)
    findings: List[Finding]
    sites: List[Optional[Site]]  # each finding's node, for the fixer (None: E999)
    error: Optional[str] = None  # the configuration could not be read: no findings
    uses: FrozenSet[str] = frozenset()  # the other modules' files its findings consulted


def _document_file(path: Optional[str], fallback: str) -> str:
    """The file whose project a document is in (``fallback``: a document
    without a file, or whose folder is gone: the workspace's)."""
    if path is None or not os.path.isdir(os.path.dirname(os.path.abspath(path))):
        return os.path.join(fallback, "untitled.py")
    return path


def document_folder(path: Optional[str], fallback: str) -> str:
    """The project folder of a document: the project root every face finds
    for a run in its folder (``project.config.project_folder``), where its
    settings are read; its own folder outside every project (``fallback``:
    a document without a file, or whose folder is gone: the workspace's)."""
    return project_folder(_document_file(path, fallback))


def check_document(
    uri: str, path: Optional[str], text: str, version: Optional[int], projects: Projects, fallback: str,
) -> Report:
    """Check one version of a document's text (``path``: its file, None for
    a document that is not one; ``fallback``: the folder whose configuration
    such a document gets)."""
    folder = projects.folder(path, fallback)
    shown = os.path.abspath(path) if path is not None else uri
    empty = Report(version, text, shown, folder, [], [], [])
    try:
        settings = projects.settings(folder)
    except ConfigError as exc:
        return empty._replace(error=str(exc))
    if settings.project.lone is not None:
        # outside every project: the document alone, and the modules its
        # imports reach (never the folder around it)
        alone = (shown,) if path is not None else ()
        settings = settings._replace(project=settings.project._replace(lone=alone))
    if path is not None and passed_over(shown, folder, settings.exclude):
        return empty  # excluded: the command's run on the project passes over it
    if not must_parse(text, settings):
        return empty  # names no spawner where one can spawn: no finding (and no E999)
    lines = split_lines(b"", text)
    joined = "".join(lines)
    if skips_file(lines, joined, settings):
        return empty
    with collector_paused():
        findings, sites = check_text(shown, lines, settings, joined)
    aligned: List[Optional[Site]] = list(sites) if len(sites) == len(findings) else [None] * len(findings)
    uses = project_view(settings.options, settings.project, settings.exclude, settings.words).consulted(shown)
    return Report(version, text, shown, folder, lines, findings, aligned, uses=uses)
