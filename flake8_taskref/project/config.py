"""Settings of the ``flake8-taskref`` command, from its command line and config files.

Where a setting comes from, the later wins:

1. the defaults (those of flake8 and of the plugin);
2. the ``[flake8]`` section of the config file flake8 itself would read: the first
   of ``setup.cfg``, ``tox.ini``, ``.flake8`` with such a section, in the current
   directory or the nearest parent (``--config FILE`` names it, ``--isolated``
   reads none) — so a project's flake8 configuration applies unchanged;
3. the ``[tool.flake8-taskref]`` table of the nearest ``pyproject.toml`` (not
   with ``--isolated``): the same names, as TOML strings, lists or booleans;
4. the command line.

Codes are chosen with flake8's own decision engine and the plugin's defaults
(TRF006 is off until selected), so a configuration means the same to the
command as to flake8.  flake8's rules for all of this (where its config file
is, how lists and paths are read, the decision engine) are copied in
``flake8_parts.py``: a run imports no module of flake8's.

``settings_at`` reads them as the command run without options in a given
folder reads them; the editor server uses it for each document, in the
document's project root (``project_folder``: the root every face finds,
``_root``), and reads them again when ``config_stamp`` changes.
"""
from __future__ import annotations

import argparse
import configparser
import io
import os
import re
import sys
from typing import Any, Callable, Dict, FrozenSet, List, Mapping, NamedTuple, Optional, Sequence, Tuple

from flake8_taskref.analysis import options as opts
from flake8_taskref.analysis.messages import MESSAGES, OFF_BY_DEFAULT
from flake8_taskref.project import flake8_parts as flake8_utils
from flake8_taskref.project.files import Patterns
from flake8_taskref.project.flake8_parts import COLORS_OFF, EXCLUDE, VALID_CODE_PREFIX, load_config
from flake8_taskref.fix import KEEP_FORMS, FixOptions
from flake8_taskref.project.cache import CACHE_DIR
from flake8_taskref.project.settings import ProjectSettings, find_project_root, lone_paths

__all__ = [
    "ConfigError", "Settings", "config_stamp", "flake8_project", "project_folder", "project_options",
    "project_root_at", "resolve", "settings_at",
]

PYPROJECT_TABLE = "flake8-taskref"
DEFAULT_LINE_LENGTH = 79  # flake8's (pycodestyle's) max-line-length
FORMATS = ("default", "pylint", "json", "sarif")

# Settings read from config files (lists are comma-separated strings, or TOML
# lists in pyproject.toml); the command-line flag is "--" + the name.
KEYS = (
    "select", "extend-select", "ignore", "extend-ignore", "per-file-ignores",
    "exclude", "extend-exclude", "filename", "disable-noqa", "check-syntax", "statistics", "count",
    "exit-zero", "jobs", "format", "taskref-spawners", "taskref-loop-names", "taskref-timeouts",
    "fix-keep", "max-line-length", "taskref-src", "taskref-cache-dir", "taskref-no-cache",
)
# flake8's [flake8] section may name other plugins' formatters: only ours is read
# from pyproject.toml and the command line.
NOT_FROM_FLAKE8 = ("format",)


class ConfigError(Exception):
    """A setting that cannot be used; the message names it (exit 2)."""


class Settings(NamedTuple):
    """Everything one run needs, validated (a named tuple: see ``Options``)."""

    paths: Tuple[str, ...]
    options: opts.Options
    codes: FrozenSet[str]  # the codes reported, before per-file ignores
    per_file: Tuple[Tuple[str, FrozenSet[str]], ...]  # (normalised pattern, codes reported there)
    exclude: Tuple[str, ...]
    filename_patterns: Tuple[str, ...]
    disable_noqa: bool
    check_syntax: bool  # parse every file for E999, not only those the shortcut lets through
    format: str
    statistics: bool
    print_count: bool  # --count (a field named "count" would hide tuple.count)
    exit_zero: bool
    jobs: int
    stdin_display_name: str
    fix: bool
    diff: bool
    fixing: FixOptions  # how --fix and --diff write the fix
    root: str  # relative paths in SARIF output are relative to this
    notes: Tuple[str, ...] = ()  # what the run must say on standard error (no TRF code checked)
    # where the project's modules are and how they are cached (the project view)
    project: ProjectSettings = ProjectSettings(".")
    # the names of the project's spawners (the project's index), found once by
    # the main process before the files are checked
    words: Optional[FrozenSet[str]] = None

    def codes_for(self, filename: str) -> FrozenSet[str]:
        """flake8's per-file-ignores: the most specific matching pattern applies."""
        best: Optional[Tuple[int, FrozenSet[str]]] = None
        for pattern, codes in self.per_file:
            if Patterns((pattern,)).matches_filename(filename) and (best is None or len(pattern) > best[0]):
                best = (len(pattern), codes)
        return self.codes if best is None else best[1]


# ---------------------------------------------------------------- reading
def _read_flake8_section(config: Optional[str], isolated: bool, cwd: str) -> Tuple[Dict[str, str], str, bool]:
    try:
        cfg, cfg_dir = load_config(config, isolated, cwd)
    except ConfigError:
        raise
    except Exception as exc:  # a file flake8 could not read either: one line, exit 2
        raise ConfigError(str(exc)) from exc
    if "flake8" not in cfg:
        return {}, cfg_dir, False
    values: Dict[str, str] = {}
    for key, value in cfg["flake8"].items():
        name = key.replace("_", "-")
        if name in KEYS and name not in NOT_FROM_FLAKE8:
            values[name] = value
    return values, cfg_dir, True


def _find_pyproject(start: str) -> Optional[str]:
    path = os.path.abspath(start)
    while True:
        candidate = os.path.join(path, "pyproject.toml")
        if os.path.isfile(candidate):
            return candidate
        parent = os.path.dirname(path)
        if parent == path:
            return None
        path = parent


def _load_toml(path: str, data: bytes) -> Mapping[str, Any]:
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover - exercised by tox on older Pythons
        import tomli as tomllib
    try:
        return tomllib.load(io.BytesIO(data))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{path}: {exc}") from exc


class _Tools(NamedTuple):
    """What the project's other tools say that the fix needs."""

    line_length: Optional[int] = None  # Ruff's, else Black's (88 where they say nothing)
    min_python: Optional[Tuple[int, int]] = None  # the oldest Python the project supports


def _read_bytes(path: str) -> bytes:
    try:
        with open(path, "rb") as handle:
            return handle.read()
    except OSError as exc:
        raise ConfigError(f"{path}: {exc}") from exc


def _read_pyproject(
    isolated: bool, fixing: bool = True, cwd: str = os.curdir,
) -> Tuple[Dict[str, str], Optional[str], _Tools]:
    """Our table's settings, the folder of the file, and what the project's
    formatter and packaging say (line length, oldest Python).

    Only --fix and --diff need what the other tools say (``fixing``).
    Without them, a file whose text cannot hold our table is not parsed (the
    TOML parser's import and run are about a tenth of a run on one file): a key
    is spelled as it is unless a basic string writes it with escapes, which
    take a backslash."""
    if isolated:
        return {}, None, _Tools()
    path = _find_pyproject(cwd)
    data: Mapping[str, Any] = {}
    if path is not None:
        raw = _read_bytes(path)
        if fixing or PYPROJECT_TABLE.encode() in raw or b"\\" in raw:
            data = _load_toml(path, raw)
    folder = os.path.dirname(path) if path is not None else os.path.abspath(cwd)
    tools = _tools(data, folder) if fixing else _Tools()
    table = data.get("tool", {}).get(PYPROJECT_TABLE) if isinstance(data.get("tool"), dict) else None
    if path is None or table is None:
        return {}, None, tools
    if not isinstance(table, dict):
        raise ConfigError(f"{path}: [tool.{PYPROJECT_TABLE}] must be a table")
    values: Dict[str, str] = {}
    for key, value in table.items():
        name = key.replace("_", "-")
        if name not in KEYS:
            raise ConfigError(f"{path}: [tool.{PYPROJECT_TABLE}]: unknown setting {key!r}")
        if isinstance(value, bool):
            values[name] = "true" if value else "false"
        elif isinstance(value, (str, int)):
            values[name] = str(value)
        elif isinstance(value, list) and all(isinstance(item, str) for item in value):
            values[name] = ",".join(value)
        else:
            raise ConfigError(
                f"{path}: [tool.{PYPROJECT_TABLE}]: {key}: "
                "expected a string, a list of strings or a boolean"
            )
    return values, os.path.dirname(path), tools


FORMATTER_LINE_LENGTH = 88  # Ruff's and Black's default


def _tools(pyproject: Mapping[str, Any], folder: str) -> _Tools:
    """Ruff's settings (``ruff.toml``/``.ruff.toml`` in ``folder`` or above it
    first, as Ruff finds them, else ``[tool.ruff]``), Black's (``[tool.black]``)
    and the packaging's oldest Python (``requires-python``, setup.cfg's
    ``python_requires``, else the formatters' target versions)."""
    found = pyproject.get("tool")
    tool: Mapping[str, Any] = found if isinstance(found, dict) else {}
    ruff = _ruff_file(folder)
    if ruff is None and isinstance(tool.get("ruff"), dict):
        ruff = tool["ruff"]
    black: Optional[Mapping[str, Any]] = tool.get("black") if isinstance(tool.get("black"), dict) else None
    length: Optional[int] = None
    for settings in (black, ruff):  # Ruff's wins
        if settings is not None:
            value = settings.get("line-length", FORMATTER_LINE_LENGTH)
            if isinstance(value, int) and not isinstance(value, bool) and value > 0:
                length = value
    floors: List[Optional[Tuple[int, int]]] = []
    project = pyproject.get("project")
    if isinstance(project, dict) and isinstance(project.get("requires-python"), str):
        floors.append(_python_floor(project["requires-python"]))
    floors.append(_setup_cfg_floor(folder))
    if ruff is not None and isinstance(ruff.get("target-version"), str):
        floors.append(_version_name(ruff["target-version"]))
    if black is not None and isinstance(black.get("target-version"), list):
        versions = [_version_name(v) for v in black["target-version"] if isinstance(v, str)]
        floors.append(min((v for v in versions if v is not None), default=None))
    return _Tools(length, next((floor for floor in floors if floor is not None), None))


def _ruff_file(folder: str) -> Optional[Mapping[str, Any]]:
    path = os.path.abspath(folder)
    while True:
        for name in (".ruff.toml", "ruff.toml"):
            candidate = os.path.join(path, name)
            if os.path.isfile(candidate):
                return _load_toml(candidate, _read_bytes(candidate))
        parent = os.path.dirname(path)
        if parent == path:
            return None
        path = parent


def _setup_cfg_floor(folder: str) -> Optional[Tuple[int, int]]:
    import configparser

    parser = configparser.RawConfigParser()
    try:
        parser.read(os.path.join(folder, "setup.cfg"), encoding="utf-8")
        return _python_floor(parser.get("options", "python_requires", fallback=""))
    except (configparser.Error, UnicodeDecodeError):
        return None


def _version_name(name: str) -> Optional[Tuple[int, int]]:
    """``py38`` -> (3, 8)."""
    match = re.fullmatch(r"py3(\d+)", name.strip().lower())
    return (3, int(match.group(1))) if match else None


def _python_floor(specifiers: str) -> Optional[Tuple[int, int]]:
    """The oldest 3.x a ``requires-python`` admits (">=3.8,<4" -> (3, 8)), or None."""
    floor: Optional[Tuple[int, int]] = None
    for spec in specifiers.split(","):
        match = re.fullmatch(r"\s*(>=|>|~=|==)\s*3\.(\d+)(?:\.[\d*]+)*\s*", spec)
        if match:
            minor = int(match.group(2)) + (1 if match.group(1) == ">" else 0)
            floor = max(floor or (3, minor), (3, minor))
    return floor


# -------------------------------------------------------------- normalising
def _bool(name: str, value: str) -> bool:
    lowered = value.strip().lower()
    if lowered in ("1", "yes", "true", "on"):
        return True
    if lowered in ("0", "no", "false", "off"):
        return False
    raise ConfigError(f"--{name}: {value!r} is not a boolean")


def _codes(name: str, value: str) -> List[str]:
    codes: List[str] = flake8_utils.parse_comma_separated_list(value)
    for code in codes:
        if not VALID_CODE_PREFIX.match(code):
            raise ConfigError(
                f"--{name}: error code {code!r} does not match {VALID_CODE_PREFIX.pattern!r}"
            )
    return codes


def _jobs(value: str) -> int:
    if value.strip().lower() == "auto":
        return os.cpu_count() or 1
    return _count("jobs", value, "neither 'auto' nor a whole number")


def _count(name: str, value: str, otherwise: str = "not a whole number") -> int:
    """A whole number of at least 1 (``--name: 'value' is <otherwise>``)."""
    try:
        number = int(value.strip())
    except ValueError:
        raise ConfigError(f"--{name}: {value!r} is {otherwise}") from None
    if number < 1:
        raise ConfigError(f"--{name}: {value!r} must be at least 1")
    return number


def _keep(value: str) -> str:
    form = value.strip().lower()
    if form not in KEEP_FORMS:
        raise ConfigError(f"--fix-keep: {value!r} is not one of {', '.join(KEEP_FORMS)}")
    return form


class _Layer:
    """The raw values of one source, with the folder its relative paths start
    from and where it is (for messages)."""

    def __init__(self, values: Mapping[str, str], base: str, where: str) -> None:
        self.values = values
        self.base = base
        self.where = where


def _flake8_file(config: Optional[str], cfg_dir: str) -> str:
    """The name of the file whose ``[flake8]`` section was read (relative to the
    current folder when it is below it)."""
    path = config
    if path is None:
        for name in ("setup.cfg", "tox.ini", ".flake8"):
            candidate = os.path.join(cfg_dir, name)
            parser = configparser.RawConfigParser()
            try:
                parser.read(candidate, encoding="UTF-8")
            except (UnicodeDecodeError, configparser.Error):
                continue
            if "flake8" in parser:
                path = candidate
                break
    if path is None:  # pragma: no cover - a section was read from one of them
        path = os.path.join(cfg_dir, "setup.cfg")
    return _shown_path(path)


def _shown_path(path: str) -> str:
    """``path`` relative to the current folder when it is below it, else absolute."""
    try:
        relative = os.path.relpath(os.path.abspath(path))
    except ValueError:  # another drive on Windows
        return os.path.abspath(path)
    return os.path.abspath(path) if relative.startswith("..") else relative


def _names_trf(items: Sequence[str]) -> bool:
    """Does one of these codes or prefixes reach a TRF code (``T``, ``TRF``,
    ``TRF00``, ``TRF001``, or any other that starts with ``TRF``)?"""
    return any(item.startswith("TRF") or any(code.startswith(item) for code in MESSAGES)
               for item in items)


def resolve(args: argparse.Namespace, cwd: str = os.curdir) -> Settings:
    """Merge defaults, config files and the command line, for a run in the
    folder ``cwd`` (the current one); raises ConfigError."""
    here = os.path.abspath(cwd)
    flake8_values, cfg_dir, flake8_found = _read_flake8_section(args.config, args.isolated, here)
    toml_values, toml_dir, tools = _read_pyproject(args.isolated, bool(args.fix or args.diff), here)
    cli_values = {
        name: getattr(args, name.replace("-", "_"))
        for name in KEYS
        if getattr(args, name.replace("-", "_"), None) is not None
    }
    toml_where = "" if toml_dir is None else \
        f"{_shown_path(os.path.join(toml_dir, 'pyproject.toml'))} [tool.{PYPROJECT_TABLE}]"
    layers = [
        _Layer(flake8_values, cfg_dir, ""),
        _Layer(toml_values, toml_dir or here, toml_where),
        _Layer({k: v if isinstance(v, str) else str(v) for k, v in cli_values.items()}, here,
               "on the command line"),
    ]

    def source(name: str) -> str:
        """Where the value of ``name`` in use is set."""
        found = next(layer for layer in reversed(layers) if name in layer.values)
        if found is layers[0]:
            return f"in {_flake8_file(args.config, cfg_dir)} [flake8]"
        return found.where if found is layers[2] else f"in {found.where}"

    def raw(name: str) -> Optional[Tuple[str, str]]:
        found: Optional[Tuple[str, str]] = None
        for layer in layers:
            if name in layer.values:
                found = (layer.values[name], layer.base)
        return found

    def text(name: str, default: str) -> str:
        got = raw(name)
        return default if got is None else got[0]

    def flag(name: str) -> bool:
        got = raw(name)
        return False if got is None else _bool(name, got[0])

    def codes(name: str) -> Optional[List[str]]:
        got = raw(name)
        return None if got is None else _codes(name, got[0])

    def paths(name: str, default: Sequence[str]) -> List[str]:
        got = raw(name)
        if got is None:
            return list(default)
        items: List[str] = flake8_utils.parse_comma_separated_list(got[0])
        return list(flake8_utils.normalize_paths(items, got[1]))

    select, extend_select = codes("select"), codes("extend-select") or []
    if select is not None and not _names_trf([*select, *extend_select]):
        # A select written for flake8's other plugins (select = E,F,W): this
        # command checks TRF all the same, as if no select were set (flake8's
        # default and the plugin's), so that only an ignore turns a TRF code
        # off (docs/command.md, "Configuration").
        select = None
    decisions = argparse.Namespace(
        select=select,
        extend_select=extend_select,
        ignore=codes("ignore"),
        extend_ignore=codes("extend-ignore") or [],
        extended_default_select=["TRF"],
        extended_default_ignore=list(OFF_BY_DEFAULT),
        taskref_spawners=text("taskref-spawners", _default("--taskref-spawners")),
        taskref_loop_names=text("taskref-loop-names", _default("--taskref-loop-names")),
        taskref_timeouts=text("taskref-timeouts", _default("--taskref-timeouts")),
    )
    try:
        analysis = opts.from_namespace(decisions, flake8_utils.selected)
    except opts.OptionValueError as exc:
        raise ConfigError(str(exc)) from exc
    chosen = _chosen(decisions)
    notes: List[str] = []
    opted = {"TRF006": analysis.collections, "TRF008": analysis.gathers, "TRF010": analysis.waits}
    if not any(code in chosen and opted.get(code, True) for code in MESSAGES):
        settings = [f"{name} = {raw(name)[0].strip()} ({source(name)})"  # type: ignore[index]
                    for name in ("select", "extend-select", "ignore", "extend-ignore")
                    if raw(name) is not None and _names_trf(codes(name) or [])]
        notes.append(f"no TRF code is checked: {'; '.join(settings)}")

    per_file: List[Tuple[str, FrozenSet[str]]] = []
    per_file_raw = raw("per-file-ignores")
    if per_file_raw is not None:
        try:
            mapping = flake8_utils.parse_files_to_codes_mapping(per_file_raw[0])
        except ValueError as exc:  # flake8_parts.PerFileIgnoresError for a malformed one: on one line
            raise ConfigError(f"--per-file-ignores: {' '.join(str(exc).split())}") from exc
        for pattern, ignored in mapping:
            extended = argparse.Namespace(**vars(decisions))
            extended.extend_ignore = [*decisions.extend_ignore, *ignored]
            # as flake8: patterns are relative to the current folder, not the config file
            per_file.append((flake8_utils.normalize_path(pattern, here), _chosen(extended)))

    output_format = text("format", "default")
    if output_format not in FORMATS:
        try:
            if "%(" not in output_format:
                raise ValueError(output_format)
            output_format % {"path": "p", "row": 1, "col": 1, "code": "TRF001", "text": "t", **COLORS_OFF}
        except (KeyError, ValueError, TypeError):
            raise ConfigError(
                f"--format: {output_format!r} is not one of {', '.join(FORMATS)} "
                "nor a %-format string like flake8's (%(path)s %(row)d %(col)d %(code)s %(text)s, "
                "and its colours: %(bold)s %(red)s ... %(reset)s)"
            ) from None
    return Settings(
        paths=tuple(args.paths) or (".",),
        options=analysis,
        codes=chosen,
        per_file=tuple(per_file),
        exclude=tuple([*paths("exclude", EXCLUDE), *paths("extend-exclude", ())]),
        filename_patterns=tuple(paths("filename", ("*.py",))),
        disable_noqa=flag("disable-noqa"),
        check_syntax=flag("check-syntax"),
        format=output_format,
        statistics=flag("statistics"),
        print_count=flag("count"),
        exit_zero=flag("exit-zero"),
        jobs=_jobs(text("jobs", "auto")),
        stdin_display_name=args.stdin_display_name,
        fix=bool(args.fix),
        diff=bool(args.diff),
        fixing=FixOptions(
            keep=_keep(text("fix-keep", KEEP_FORMS[0])),
            # flake8's setting (or ours), else the formatter's, else flake8's default
            line_length=_count(
                "max-line-length", text("max-line-length", str(tools.line_length or DEFAULT_LINE_LENGTH))
            ),
            min_python=tools.min_python,
        ),
        root=here,
        notes=tuple(notes),
        project=_project(
            raw, _root(bool(flake8_found or args.config), cfg_dir, toml_dir, here),
            _checked(args.paths, args.stdin_display_name), here,
        ),
    )


def _root(flake8_read: bool, cfg_dir: str, toml_dir: Optional[str], here: str) -> Optional[str]:
    """The project root of a run in ``here`` (docs/configuration.md, "Where a
    project starts"): the folder of flake8's configuration file, if one is
    read; else of the ``pyproject.toml`` whose ``[tool.flake8-taskref]`` table
    is read; else the nearest folder with one of ``PROJECT_MARKERS``; None:
    no project.  The one rule of every face (``project_folder``)."""
    if flake8_read:
        return cfg_dir
    return toml_dir or find_project_root(here)


def project_root_at(folder: str) -> Optional[str]:
    """The project root of the command run without options in ``folder``,
    as ``resolve`` finds it (None: no project); raises ConfigError when a
    configuration file cannot be read."""
    here = os.path.abspath(folder)
    _, cfg_dir, flake8_found = _read_flake8_section(None, False, here)
    _, toml_dir, _ = _read_pyproject(False, False, here)
    return _root(flake8_found, cfg_dir, toml_dir, here)


# the project view's settings, as flake8 hands them to the plugin
PROJECT_KEYS = ("taskref-src", "taskref-cache-dir", "taskref-no-cache")


def flake8_project(
    config: Optional[str], isolated: bool, values: Mapping[str, Any], checked: Sequence[str],
    cwd: str = os.curdir, table: bool = True,
) -> ProjectSettings:
    """The project view's settings of a flake8 run in ``cwd`` (``config``,
    ``isolated``: flake8's ``--config`` and ``--isolated``), as the command
    run there with the same options finds them (``resolve``): the same root
    (``_root``: flake8's file, else a ``pyproject.toml`` with our table, else
    the markers), and ``PROJECT_KEYS`` from ``[flake8]``, from
    ``[tool.flake8-taskref]`` over it (a table flake8 does not read) and from
    flake8's command line over both.  ``values``: the plugin's values of
    ``PROJECT_KEYS`` as flake8 gives them, its configuration file's merged
    with its command line's (a value that differs from the file's is the
    command line's); raises ConfigError (a table the command refuses;
    ``table`` False: ``pyproject.toml`` not read)."""
    here = os.path.abspath(cwd)
    flake8_values, cfg_dir, flake8_found = _read_flake8_section(config, isolated, here)
    toml_values, toml_dir, _ = _read_pyproject(isolated or not table, False, here)
    given: Dict[str, str] = {}
    for name in PROJECT_KEYS:
        value = values.get(name)
        in_file = flake8_values.get(name)
        if isinstance(value, bool):  # a switch: on, where the file did not turn it on
            if value and not (in_file is not None and _bool(name, in_file)):
                given[name] = "true"
        elif value and value != in_file:
            given[name] = str(value)
    layers = ((flake8_values, cfg_dir), (toml_values, toml_dir or here), (given, here))

    def raw(name: str) -> Optional[Tuple[str, str]]:
        found: Optional[Tuple[str, str]] = None
        for layer, base in layers:
            if name in layer:
                found = (layer[name], base)
        return found

    return _project(raw, _root(bool(flake8_found or config), cfg_dir, toml_dir, here), checked, here)


def _checked(paths: Sequence[str], stdin_name: Optional[str]) -> Tuple[str, ...]:
    """The paths checked, standard input by its display name (its file, whose
    imports a check outside every project follows)."""
    return tuple(stdin_name or "stdin" if path == "-" else path for path in paths) or (".",)


def _project(
    raw: Callable[[str], Optional[Tuple[str, str]]], root: Optional[str], checked: Sequence[str], here: str,
) -> ProjectSettings:
    """The project view's settings: the source roots and the cache folder, each
    relative to the folder of the file that sets it (the current folder on the
    command line), and no cache with ``taskref-no-cache``; ``root`` None: no
    project (``settings.find_project_root``): the paths ``checked`` alone, and
    no cache unless the command line names its folder."""
    folder = raw("taskref-cache-dir")
    no_cache = raw("taskref-no-cache")
    cache_dir = None if root is None else os.path.join(root, CACHE_DIR)
    if folder is not None and folder[0].strip():
        cache_dir = os.path.normpath(os.path.join(folder[1], folder[0].strip()))
    if no_cache is not None and _bool("taskref-no-cache", no_cache[0]):
        cache_dir = None
    if root is None:
        return ProjectSettings(here, (), cache_dir, lone_paths(checked, here))
    roots: Tuple[str, ...] = ()
    src = raw("taskref-src")
    if src is not None:
        try:
            items = opts.split_items("--taskref-src", src[0])
        except opts.OptionValueError as exc:
            raise ConfigError(str(exc)) from exc
        roots = tuple(os.path.normpath(os.path.join(src[1], item)) for item in items)
    return ProjectSettings(os.path.abspath(root), roots, cache_dir)


# The files a folder's settings are read from, in it or in a folder above it:
# flake8's (the first with a [flake8] section), pyproject.toml, and, for the
# fix's line length, Ruff's.
CONFIG_FILES = ("setup.cfg", "tox.ini", ".flake8", "pyproject.toml", "ruff.toml", ".ruff.toml")


def settings_at(folder: str, fixing: bool = False, options: Optional[Mapping[str, str]] = None) -> Settings:
    """The settings of ``flake8-taskref`` run without options in ``folder``
    (``fixing``: as ``--fix`` reads them, with the line length of Ruff or
    Black from their files; ``options``: run with these options, by their
    names in the configuration, as the editor server's settings give them);
    raises ConfigError, naming the setting or the file."""
    defaults = argparse.Namespace(
        paths=[], config=None, isolated=False, stdin_display_name="stdin", fix=fixing, diff=False
    )
    for name, value in (options or {}).items():
        if name in KEYS:
            setattr(defaults, name.replace("-", "_"), value)
    try:
        return resolve(defaults, folder)
    except OSError as exc:  # a folder that went away meanwhile
        raise ConfigError(str(exc)) from exc


def project_folder(path: str) -> str:
    """The folder the command is run in to check the file ``path``, as a
    project runs it: the project root that a run in the file's own folder
    finds (``project_root_at``: the rule of every face, so that the editor
    server reads a document's settings from the root the project's index
    uses, and matches ``per-file-ignores`` and excludes from there); the
    file's own folder outside every project.  A configuration file that
    cannot be read: the nearest folder with one of ``PROJECT_MARKERS`` (the
    settings read there say what is wrong)."""
    start = os.path.dirname(os.path.abspath(path))
    try:
        root = project_root_at(start)
    except (ConfigError, OSError):
        root = find_project_root(start)
    return start if root is None else root


def config_stamp(folder: str) -> Tuple[Tuple[str, int, int, int], ...]:
    """What the settings at ``folder`` are read from, as it is on disk now: the
    inode, size and modification time of every ``CONFIG_FILES`` in it and above
    it.  The same stamp, the same settings (a file created, changed or removed
    changes it)."""
    stamp: List[Tuple[str, int, int, int]] = []
    path = os.path.abspath(folder)
    while True:
        for name in CONFIG_FILES:
            candidate = os.path.join(path, name)
            try:
                st = os.stat(candidate)
            except OSError:
                continue
            stamp.append((candidate, st.st_ino, st.st_size, st.st_mtime_ns))
        parent = os.path.dirname(path)
        if parent == path:
            return tuple(stamp)
        path = parent


def project_options(root: str) -> opts.Options:
    """The analysis options of the project's configuration, read as the
    ``flake8-taskref`` command reads them from ``root`` (``[flake8]`` in
    setup.cfg/tox.ini/.flake8, ``[tool.flake8-taskref]`` in pyproject.toml), so
    that configured spawners count (the pytest option uses this); raises
    ConfigError, naming the setting or the file, when it cannot be read."""
    return settings_at(root).options


def _default(flag: str) -> str:
    for name, default, _ in opts.FLAGS:
        if name == flag:
            return default
    raise KeyError(flag)


def _chosen(decisions: argparse.Namespace) -> FrozenSet[str]:
    return frozenset(code for code in MESSAGES if flake8_utils.selected(decisions, code))
