"""The flake8 face: registers the options with flake8, turns them into the
analysis's ``Options`` and reports what ``analysis.api.lint_file`` finds, each
finding converted to a flake8-plugin-utils ``Error`` (the analysis has its own
finding class, so that the command need not import flake8's plugin machinery)."""
from __future__ import annotations

import argparse
import ast
import os
import sys
from typing import Dict, Iterable, List, Optional, Sequence, Tuple, Type

from flake8.options.manager import OptionManager
from flake8_plugin_utils import Error, Plugin

from flake8_taskref import __version__
from flake8_taskref.analysis import options as opts
from flake8_taskref.analysis.messages import MESSAGES, OFF_BY_DEFAULT, SpanError
from flake8_taskref.project.check import internal_error
from flake8_taskref.project.settings import FLAGS as PROJECT_FLAGS
from flake8_taskref.project.config import ConfigError, flake8_project
from flake8_taskref.project.settings import ProjectSettings, find_project_root, from_values
from flake8_taskref.project.view import project_view

__all__ = ["TaskRefPlugin", "register"]


def register(option_manager: OptionManager) -> None:
    """Add our options to flake8 (command line and config files)."""
    for flag, default, help_text in opts.FLAGS:
        option_manager.add_option(flag, default=default, parse_from_config=True, help=help_text)
    for flag, default, help_text, switch in PROJECT_FLAGS:
        if switch:
            option_manager.add_option(flag, action="store_true", parse_from_config=True, help=help_text)
        else:
            option_manager.add_option(flag, default=default, parse_from_config=True, help=help_text)


def _error_class(code: str) -> Type[Error]:
    # the analysis formats the message; the class passes it through
    return type(code, (Error,), {"code": code, "message": "{text}"})


ERRORS: Dict[str, Type[Error]] = {code: _error_class(code) for code in MESSAGES}


def to_flake8(error: SpanError) -> Error:
    """A finding of the analysis as flake8-plugin-utils' ``Error``."""
    return ERRORS[error.code](error.lineno, error.col_offset, text=error.message)


class TaskRefPlugin(Plugin[opts.Options]):
    """flake8-taskref: asyncio tasks that can be garbage-collected while running."""

    name = "flake8-taskref"
    version = __version__
    visitors = []  # the analysis walks the tree itself (``run``)
    config: opts.Options = opts.Options.build()
    # where the project is and how it is cached (``parse_options_to_config``)
    project: Tuple[ProjectSettings, Tuple[str, ...]] = (ProjectSettings(os.getcwd()), ())

    def __init__(
        self, tree: ast.AST, lines: Optional[Sequence[str]] = None, filename: str = "<unknown>"
    ) -> None:
        super().__init__(tree)
        self._lines = lines
        self._filename = filename

    def run(self) -> Iterable[tuple]:  # type: ignore[type-arg]
        try:
            settings, exclude = self.project
            view = project_view(self.config, settings, exclude, keep_trees=False)  # flake8 parsed it
            errors = view.findings(self._filename, self._tree, self._lines)
        except RecursionError:
            # A pathologically deep expression: skip this file, say so once, so
            # that the flake8 run goes on.
            sys.stderr.write(f"flake8-taskref: skipped {self._filename}: nested too deeply to analyse\n")
            return
        except Exception as exc:
            # A bug of ours: flake8 would stop the whole run (it iterates this
            # generator outside its own try), losing every other plugin's and
            # file's findings.  As Ruff does with a panic: one line naming the
            # file, which gets no findings, and the run goes on.
            sys.stderr.write(f"flake8-taskref: {self._filename}: internal error: {internal_error(exc)}\n")
            return
        for error in errors:
            yield self._error(to_flake8(error))

    @classmethod
    def add_options(cls, option_manager: OptionManager) -> None:
        register(option_manager)
        option_manager.extend_default_ignore(list(OFF_BY_DEFAULT))

    @classmethod
    def parse_options_to_config(
        cls, option_manager: OptionManager, options: argparse.Namespace, args: List[str]
    ) -> opts.Options:
        try:
            config = opts.from_namespace(options)
            src = tuple(opts.split_items("--taskref-src", options.taskref_src or ""))
        except opts.OptionValueError as exc:
            option_manager.parser.error(f"flake8-taskref: {exc}")
            raise  # pragma: no cover - parser.error exits
        checked = [getattr(options, "stdin_display_name", "stdin") if name == "-" else name
                   for name in getattr(options, "filenames", None) or (".",)]
        settings = _project_settings(options, src, checked)
        exclude = tuple(
            [*(getattr(options, "exclude", None) or ()), *(getattr(options, "extend_exclude", None) or ())]
        )
        cls.project = (settings, exclude)
        return config


def _project_settings(
    options: argparse.Namespace, src: Tuple[str, ...], checked: List[str],
) -> ProjectSettings:
    """Where the project is and how it is cached, as the ``flake8-taskref``
    command run here with the same options finds them (``flake8_project``:
    one rule for every face, ``[tool.flake8-taskref]`` included, so that
    both faces share one index and one cache and give the same findings from
    any folder).  flake8 reads ``--isolated`` and ``--config`` before the
    other options and hands them to no plugin: its first-stage parser reads
    them again from the command line.  A ``pyproject.toml`` that the command
    refuses (it says why) is said once, and the rest is read without it."""
    values = {"taskref-src": options.taskref_src or "", "taskref-cache-dir": options.taskref_cache_dir or "",
              "taskref-no-cache": bool(options.taskref_no_cache)}
    try:
        from flake8.main.options import stage1_arg_parser

        first, _ = stage1_arg_parser().parse_known_args(sys.argv[1:])
        isolated, config = bool(first.isolated), first.config
    except BaseException:  # flake8 has read them already and said what is wrong
        isolated, config = False, None
    for table in (True, False):
        try:
            return flake8_project(config, isolated, values, checked, table=table)
        except ConfigError as exc:
            if table:
                sys.stderr.write(f"flake8-taskref: {exc} (read without it)\n")
    # flake8's own file, which flake8 has read: the nearest project from here
    return from_values(find_project_root(os.getcwd()), src, options.taskref_cache_dir or "",
                       bool(options.taskref_no_cache), checked)
