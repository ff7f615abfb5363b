"""Purity: the analysis works on the tree it is given (and the summaries of
other modules, through the view it is handed) and nothing else.  It never
opens or writes files, never imports (least of all the code it lints), never
runs a process and never touches the network.  What reads the project from
disk is the project view, over the analysis: it reads files, never imports or
runs them (the last test here).

Two independent checks over every fixture:

* in process, with ``open``/``io.open``/``os.open``, ``socket.socket``,
  ``importlib.import_module``, ``builtins.__import__`` and the process
  launchers replaced by functions that raise (restored right after);
* in a subprocess with a ``sys.addaudithook`` hook, installed after the plugin
  is imported and the fixtures are read and parsed: no ``open``, ``import``,
  ``socket.*``, ``subprocess.*``, ``os.*``, ``exec`` or ``compile`` audit event
  may be raised while the analysis runs.

And it leaves nothing behind: no reference cycles for the cyclic collector.
"""
from __future__ import annotations

import ast
import builtins
import importlib
import io
import json
import os
import socket
import subprocess
import sys
import textwrap
import warnings
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator, List, Tuple

import pytest

from flake8_taskref.analysis.api import analyse, lint_file, summarise
from flake8_taskref.analysis.modules import ModuleSummary
from flake8_taskref.analysis.options import Options

TESTS = Path(__file__).resolve().parent
DATA = TESTS / "data"
SHARED_CASES = Path(__file__).resolve().parent / "data" / "cases"

OPTION_SETS = (
    Options.build(),
    Options.build(spawners=("myapp.tasks.spawn", "canary_module.spawn"), timeouts=("async_timeout.timeout",)),
)

CANARY = '''
import asyncio
import canary_module
from canary_module import spawn
import importlib

importlib.import_module("canary_module")
__import__("canary_module")


async def main():
    spawn(main())
    canary_module.spawn(main())
    asyncio.create_task(asyncio.sleep(1))
    with open("written.txt", "w") as fh:
        fh.write("x")
'''


def fixture_sources() -> List[Tuple[str, str]]:
    paths = sorted(DATA.rglob("*.py"))
    if SHARED_CASES.is_dir():
        paths += sorted(SHARED_CASES.glob("*.py"))
    sources = [("canary.py", textwrap.dedent(CANARY))]
    for path in paths:
        source = path.read_text(encoding="utf-8")
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                ast.parse(source)
        except SyntaxError:
            continue
        sources.append((str(path), source))
    return sources


class Forbidden(AssertionError):
    pass


@contextmanager
def forbidden_side_effects() -> Iterator[List[str]]:
    """Replace the ways to reach files, modules, processes and the network."""
    calls: List[str] = []

    def refuse(name: str) -> Any:
        def raiser(*args: Any, **kwargs: Any) -> Any:
            calls.append(name)
            first = args[0] if args and isinstance(args[0], (str, int)) else "..."
            raise Forbidden(f"the analysis called {name}({first!r})")

        return raiser

    real_import = builtins.__import__
    real_import_module = importlib.import_module

    def guarded_import(name: str, *args: Any, **kwargs: Any) -> Any:
        # The standard library imports lazily inside functions the analysis
        # uses (ast.walk does "from collections import deque"): a module that
        # is already loaded is fine, loading a new one is not.
        if name in sys.modules and (len(args) < 4 or not args[3]):
            return real_import(name, *args, **kwargs)
        calls.append(f"__import__({name!r})")
        raise Forbidden(f"the analysis imported {name!r}")

    def guarded_import_module(name: str, package: Any = None) -> Any:
        if name in sys.modules:
            return real_import_module(name, package)
        calls.append(f"import_module({name!r})")
        raise Forbidden(f"the analysis imported {name!r}")

    targets = [
        (builtins, "open", None),
        (io, "open", None),
        (os, "open", None),
        (os, "listdir", None),
        (os, "scandir", None),
        (os, "system", None),
        (socket, "socket", None),
        (socket, "create_connection", None),
        (importlib, "import_module", guarded_import_module),
        (builtins, "__import__", guarded_import),
        (subprocess, "Popen", None),
    ]
    saved = [(obj, name, getattr(obj, name)) for obj, name, _ in targets]
    try:
        for obj, name, replacement in targets:
            setattr(obj, name, replacement or refuse(f"{getattr(obj, '__name__', obj)}.{name}"))
        yield calls
    finally:
        for obj, name, original in saved:
            setattr(obj, name, original)


# Other modules as the analysis sees them: summaries in memory (one of a
# module with a spawner, so that the analysis does consult it).
SPAWNERS_MODULE = "import asyncio\n\n\ndef spawn(coro):\n    return asyncio.create_task(coro)\n"


def memory_view() -> Any:
    summary = summarise(ast.parse(SPAWNERS_MODULE), Options.build(), "canary_module.py")
    asked: List[str] = []

    def view(name: str) -> "ModuleSummary | None":
        asked.append(name)
        return summary if name == "canary_module" else None

    view.asked = asked  # type: ignore[attr-defined]
    return view


def test_no_files_imports_processes_or_sockets_in_process() -> None:
    prepared = []
    for name, source in fixture_sources():
        prepared.append((name, source.splitlines(keepends=True), ast.parse(source), ast.parse(source)))
    assert len(prepared) >= 2
    results = []
    view = memory_view()
    with forbidden_side_effects() as calls:
        for name, lines, tree, other_tree in prepared:
            for options in OPTION_SETS:
                results.append(len(analyse(tree, options, view=view)))
            results.append(len(lint_file(other_tree, lines, OPTION_SETS[0], name, view)))
            summarise(other_tree, OPTION_SETS[0], name, view)
    assert calls == []
    assert "canary_module" in view.asked  # the view was consulted, in memory
    assert sum(results) > 0  # the analysis did run and report
    assert "canary_module" not in sys.modules
    assert not Path("written.txt").exists()


AUDIT_SCRIPT = r'''
import ast, json, sys
from flake8_taskref.analysis.options import Options
from flake8_taskref.analysis.api import analyse, lint_file, load, summarise

load()  # the analysis proper is imported on first use: before the hook
payload = json.loads(sys.stdin.read())
prepared = [(name, src.splitlines(keepends=True), ast.parse(src)) for name, src in payload]
options = [
    Options.build(),
    Options.build(spawners=("myapp.tasks.spawn", "canary_module.spawn"), timeouts=("async_timeout.timeout",)),
]
PREFIXES = ("open", "import", "socket.", "subprocess.", "os.", "shutil.", "exec", "compile",
            "urllib.", "http.", "ftplib.", "smtplib.", "ctypes.", "glob.", "pathlib.", "tempfile.")
events = []
recording = False

def hook(event, args):
    if recording and event.startswith(PREFIXES):
        events.append([event, repr(args)[:300]])

sys.addaudithook(hook)
recording = True
found = 0
for name, lines, tree in prepared:
    for opts in options:
        found += len(analyse(tree, opts))
    found += len(lint_file(tree, lines, options[0], name))
    summarise(tree, options[0], name)
recording = False
sys.stdout.write(json.dumps({"events": events, "found": found, "canary": "canary_module" in sys.modules}))
'''


def test_no_audit_events_during_the_analysis(tmp_path: Path) -> None:
    payload = json.dumps(fixture_sources())
    # The canary module exists next to the subprocess: importing it would work.
    (tmp_path / "canary_module.py").write_text("raise SystemExit('canary imported')\n", encoding="utf-8")
    proc = subprocess.run(
        [sys.executable, "-c", AUDIT_SCRIPT],
        input=payload,
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path), os.environ.get("PYTHONPATH", "")])},
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr
    report = json.loads(proc.stdout)
    assert report["events"] == [], report["events"][:20]
    assert report["found"] > 0
    assert report["canary"] is False
    assert not (tmp_path / "written.txt").exists()


def test_audit_hook_sees_what_it_should(tmp_path: Path) -> None:
    """The audit check is not vacuous: the same hook records an open()."""
    script = AUDIT_SCRIPT.replace(
        "found += len(lint_file(tree, lines, options[0], name))",
        "found += len(lint_file(tree, lines, options[0], name)); open(__import__('os').devnull).close()",
    )
    assert script != AUDIT_SCRIPT
    proc = subprocess.run(
        [sys.executable, "-c", script], input=json.dumps(fixture_sources()[:1]), capture_output=True,
        text=True, cwd=tmp_path, timeout=300,
    )
    assert proc.returncode == 0, proc.stderr
    events = [event for event, _ in json.loads(proc.stdout)["events"]]
    assert "open" in events


@pytest.mark.parametrize("lines", [None, ["import asyncio\n", "asyncio.create_task(f())\n"]])
def test_lint_file_without_lines_or_with_lines_is_pure(lines: Any) -> None:
    tree = ast.parse("import asyncio\nasyncio.create_task(f())\n")
    view = memory_view()  # (which imports the analysis, as the first summary does)
    with forbidden_side_effects() as calls:
        out = lint_file(tree, lines, Options.build(), "x.py", view)
    assert calls == [] and len(out) == 1


def test_the_project_view_reads_the_project_but_never_imports_or_runs_it(tmp_path: Path) -> None:
    """flake8 with the plugin on a project whose module would write a file and
    exit if imported: the module is read (its spawner is found), nothing of it
    runs."""
    (tmp_path / "canary_module.py").write_text(
        "import asyncio, pathlib, sys\n"
        "pathlib.Path('written.txt').write_text('imported')\n"
        "sys.exit('canary imported')\n\n\n"
        "def spawn(coro):\n    return asyncio.create_task(coro)\n",
        encoding="utf-8",
    )
    (tmp_path / "main.py").write_text(
        "from canary_module import spawn\n\n\nasync def main(job):\n    spawn(job())\n", encoding="utf-8"
    )
    proc = subprocess.run(
        [sys.executable, "-m", "flake8", "--isolated", "--select", "TRF", "main.py"],
        capture_output=True, text=True, cwd=tmp_path, timeout=300,
    )
    assert proc.stdout.startswith("main.py:5:5: TRF001 task returned by spawn() (canary_module.py:6)"), proc
    assert proc.returncode == 1 and not (tmp_path / "written.txt").exists(), proc.stderr


def test_the_guards_are_not_vacuous() -> None:
    with forbidden_side_effects() as calls:
        with pytest.raises(Forbidden):
            import canary_module_never_there  # type: ignore[import-not-found]  # noqa: F401
        with pytest.raises(Forbidden):
            open(os.devnull)
        with pytest.raises(Forbidden):
            socket.socket()
        import collections  # already loaded: allowed  # noqa: F401
    assert len(calls) == 3


def test_the_analysis_leaves_no_reference_cycles() -> None:
    """Everything the analysis records is freed by reference counting when it is
    done: nothing is left for the cyclic collector to find (it would walk it, and
    the fresh tree, again)."""
    import gc

    source = (Path(__file__).parent / "data" / "trf002_unkept_binding.py").read_text()
    lines = source.splitlines(keepends=True)
    tree = ast.parse(source)
    enabled = gc.isenabled()
    gc.collect()
    gc.disable()
    try:
        for options in (Options.build(), Options.build(collections=False)):
            assert analyse(tree, options)  # findings, so the analysis did record facts
            assert gc.collect() == 0
            assert analyse(tree, options, lines)
            assert gc.collect() == 0
    finally:
        if enabled:
            gc.enable()
