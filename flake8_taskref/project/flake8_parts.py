"""What the ``flake8-taskref`` command takes from flake8 (7.x), copied, so that a
run imports no module of flake8's.

Importing any of flake8's modules imports ``flake8/__init__.py`` and, with it,
``logging``; its option manager imports the plugin finder and
``importlib.metadata``: together more than the rest of a run on one file.  The
parts copied are small and are flake8's rules for configuration, not its
machinery: the config file it finds and reads (``options/config.py``), its
defaults and ``# noqa`` patterns (``defaults.py``), its colours and default
format (``formatting/default.py``), the parsing of lists and
paths (``utils.py``) and its choice of codes from select/ignore
(``style_guide.DecisionEngine``).  ``tests/test_command_work.py`` checks each
against the flake8 installed.  (flake8's path expansion has its own copy in
``files.py``.)  flake8 is MIT-licensed; its notice is at the end of LICENSE.
"""
from __future__ import annotations

import argparse
import configparser
import os
import re
from typing import List, Optional, Pattern, Sequence, Tuple

__all__ = [
    "COLORS", "COLORS_OFF", "DEFAULT_FORMAT", "EXCLUDE", "VALID_CODE_PREFIX", "PerFileIgnoresError",
    "load_config", "noqa_file", "noqa_inline",
    "normalize_path", "normalize_paths", "parse_comma_separated_list", "parse_files_to_codes_mapping",
    "selected",
]

# ------------------------------------------------------------ defaults.py
EXCLUDE = (".svn", "CVS", ".bzr", ".hg", ".git", "__pycache__", ".tox", ".nox", ".eggs", "*.egg")
IGNORE = ("E121", "E123", "E126", "E226", "E24", "E704", "W503", "W504")
VALID_CODE_PREFIX = re.compile("^[A-Z]{1,3}[0-9]{0,3}$", re.ASCII)
COMMA_SEPARATED_LIST_RE = re.compile(r"[,\s]")
_NOQA: List[Pattern[str]] = []


def _noqa_patterns() -> List[Pattern[str]]:
    # compiled on first use: most runs meet no "# noqa" in a file with a finding
    if not _NOQA:
        _NOQA.append(re.compile(r"# noqa(?::[\s]?(?P<codes>([A-Z]+[0-9]+(?:[,\s]+)?)+))?", re.IGNORECASE))
        _NOQA.append(re.compile(r"\s*# flake8[:=]\s*noqa", re.I))
    return _NOQA


def noqa_inline() -> Pattern[str]:
    """flake8's ``NOQA_INLINE_REGEXP``."""
    return _noqa_patterns()[0]


def noqa_file() -> Pattern[str]:
    """flake8's ``NOQA_FILE``."""
    return _noqa_patterns()[1]


# --------------------------------------------------- formatting/default.py
COLORS = {
    "bold": "\033[1m",
    "black": "\033[30m",
    "red": "\033[31m",
    "green": "\033[32m",
    "yellow": "\033[33m",
    "blue": "\033[34m",
    "magenta": "\033[35m",
    "cyan": "\033[36m",
    "white": "\033[37m",
    "reset": "\033[m",
}
COLORS_OFF = {key: "" for key in COLORS}
# flake8's default format: ``path:row:col: CODE text``, in colour on a terminal
DEFAULT_FORMAT = (
    "%(bold)s%(path)s%(reset)s"
    "%(cyan)s:%(reset)s%(row)d%(cyan)s:%(reset)s%(col)d%(cyan)s:%(reset)s "
    "%(bold)s%(red)s%(code)s%(reset)s %(text)s"
)


# --------------------------------------------------------------- utils.py
def parse_comma_separated_list(value: str, regexp: Pattern[str] = COMMA_SEPARATED_LIST_RE) -> List[str]:
    """Split on commas and whitespace; no empty items."""
    assert isinstance(value, str), value
    return [item for item in (part.strip() for part in regexp.split(value)) if item]


def normalize_paths(paths: Sequence[str], parent: str = os.curdir) -> List[str]:
    assert isinstance(paths, list), paths
    return [normalize_path(path, parent) for path in paths]


def normalize_path(path: str, parent: str = os.curdir) -> str:
    """A path with a separator (or ".") made absolute from ``parent``; a bare
    name (a pattern) as it is; no trailing separator."""
    separator = os.path.sep
    alternate_separator = os.path.altsep or ""
    if path == "." or separator in path or (alternate_separator and alternate_separator in path):
        path = os.path.abspath(os.path.join(parent, path))
    return path.rstrip(separator + alternate_separator)


class PerFileIgnoresError(ValueError):
    """flake8's ``ExecutionError`` for a per-file-ignores value it cannot read."""


_CODE, _FILE, _COLON, _COMMA, _WS, _EOF = "code", "file", "colon", "comma", "ws", "eof"
_FILE_LIST_TOKEN_TYPES = [
    (r"[A-Z]+[0-9]*(?=$|\s|,)", _CODE),
    (r"[^\s:,]+", _FILE),
    (r"\s*:\s*", _COLON),
    (r"\s*,\s*", _COMMA),
    (r"\s+", _WS),
]


def _tokenize_files_to_codes_mapping(value: str) -> List[Tuple[str, str]]:
    tokens: List[Tuple[str, str]] = []
    types = [(re.compile(regex), name) for regex, name in _FILE_LIST_TOKEN_TYPES]  # only with the option
    i = 0
    while i < len(value):
        for token_re, token_name in types:
            match = token_re.match(value, i)
            if match:
                tokens.append((token_name, match.group().strip()))
                i = match.end()
                break
        else:  # pragma: no cover - flake8's "unreachable"
            raise AssertionError("unreachable", value, i)
    tokens.append((_EOF, ""))
    return tokens


def parse_files_to_codes_mapping(value: str) -> List[Tuple[str, List[str]]]:
    """``filenames list:codes list ...`` as (pattern, codes) pairs."""
    ret: List[Tuple[str, List[str]]] = []
    if not value.strip():
        return ret
    seen_sep, seen_colon = True, False
    filenames: List[str] = []
    codes: List[str] = []

    def reset() -> None:
        nonlocal seen_sep, seen_colon, filenames, codes
        if codes:
            for filename in filenames:
                ret.append((filename, codes))
        seen_sep, seen_colon, filenames, codes = True, False, [], []

    def unexpected() -> PerFileIgnoresError:
        import textwrap

        return PerFileIgnoresError(
            "Expected `per-file-ignores` to be a mapping from file exclude patterns to ignore codes."
            f"\n\nConfigured `per-file-ignores` setting:\n\n{textwrap.indent(value.strip(), '    ')}"
        )

    for kind, text in _tokenize_files_to_codes_mapping(value):
        if kind in {_COMMA, _WS}:
            seen_sep = True
        elif not seen_colon:
            if kind == _COLON:
                seen_colon = seen_sep = True
            elif seen_sep and kind == _FILE:
                filenames.append(text)
                seen_sep = False
            else:
                raise unexpected()
        elif kind == _EOF:
            reset()
        elif seen_sep and kind == _CODE:
            codes.append(text)
            seen_sep = False
        elif seen_sep and kind == _FILE:
            reset()
            filenames.append(text)
            seen_sep = False
        else:
            raise unexpected()
    return ret


# ---------------------------------------------------- style_guide.py
def _explicitly_chosen(option: Optional[List[str]], extend: Optional[List[str]]) -> Tuple[str, ...]:
    return tuple(sorted([*(option or []), *(extend or [])], reverse=True))


def _select_ignore(
    option: Optional[List[str]], default: Tuple[str, ...], extended_default: List[str],
    extend: Optional[List[str]],
) -> Tuple[str, ...]:
    if option is not None:  # set explicitly: the default and extended default do not count
        chosen = [*option, *(extend or [])]
    else:
        chosen = [*default, *extended_default, *(extend or [])]
    return tuple(sorted(chosen, reverse=True))


def selected(options: argparse.Namespace, code: str) -> bool:
    """``DecisionEngine(options).decision_for(code) == Decision.Selected``."""
    selected_explicitly = _explicitly_chosen(options.select, options.extend_select)
    ignored_explicitly = _explicitly_chosen(options.ignore, options.extend_ignore)
    selected = _select_ignore(options.select, (), options.extended_default_select, options.extend_select)
    ignored = _select_ignore(options.ignore, IGNORE, options.extended_default_ignore, options.extend_ignore)
    # was_selected / was_ignored: (chosen?, explicitly?)
    if code.startswith(selected_explicitly):
        was_selected = (True, True)
    else:
        was_selected = (bool(code.startswith(selected)), False)
    if code.startswith(ignored_explicitly):
        was_ignored = (True, True)
    else:
        was_ignored = (bool(code.startswith(ignored)), False)
    is_selected, selected_explicit = was_selected
    is_ignored, ignored_explicit = was_ignored
    if is_selected and not is_ignored:
        return True
    if not is_selected and is_ignored:
        return False
    if selected_explicit and not ignored_explicit:
        return True
    if not selected_explicit and ignored_explicit:
        return False
    if not is_selected and not is_ignored:  # Ignored.Implicitly and Selected.Implicitly
        return False
    # in both lists, both explicitly or both implicitly: the longest prefix wins
    select = next(prefix for prefix in selected if code.startswith(prefix))
    ignore = next(prefix for prefix in ignored if code.startswith(prefix))
    return len(select) > len(ignore)


# --------------------------------------------------- options/config.py
def _stat_key(path: str) -> Tuple[int, int]:
    st = os.stat(path)
    return st.st_ino, st.st_dev


def _find_config_file(path: str) -> Optional[str]:
    """The first of setup.cfg, tox.ini, .flake8 with a flake8 section, in ``path``
    or the nearest parent, stopping at the home folder."""
    home = os.path.expanduser("~")
    try:
        home_stat: Optional[Tuple[int, int]] = _stat_key(home) if home != "~" else None
    except OSError:
        home_stat = None
    dir_stat = _stat_key(path)
    while True:
        for candidate in ("setup.cfg", "tox.ini", ".flake8"):
            cfg = configparser.RawConfigParser()
            cfg_path = os.path.join(path, candidate)
            try:
                cfg.read(cfg_path, encoding="UTF-8")
            except (UnicodeDecodeError, configparser.ParsingError):
                pass  # flake8 logs "ignoring unparseable config" to its logger, which prints nothing
            else:
                if "flake8" in cfg or "flake8:local-plugins" in cfg:
                    return cfg_path
        new_path = os.path.dirname(path)
        new_dir_stat = _stat_key(new_path)
        if new_dir_stat == dir_stat or new_dir_stat == home_stat:
            return None
        path = new_path
        dir_stat = new_dir_stat


class ConfigFileMissing(Exception):
    """flake8's ``ExecutionError`` for a --config file that does not exist."""


def load_config(
    config: Optional[str], isolated: bool, cwd: str = os.curdir,
) -> Tuple[configparser.RawConfigParser, str]:
    """The config flake8 reads when it is run in ``cwd``, and the folder its
    relative paths start from: none with ``isolated``; the file named by
    ``--config``; else the one found."""
    pwd = os.path.abspath(cwd)
    if isolated:
        return configparser.RawConfigParser(), pwd
    if config is None:
        config = _find_config_file(pwd)
    cfg = configparser.RawConfigParser()
    if config is None:
        return cfg, pwd
    if not cfg.read(config, encoding="UTF-8"):
        raise ConfigFileMissing(f"The specified config file does not exist: {config}")
    return cfg, os.path.dirname(config)
