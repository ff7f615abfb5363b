"""Which static finding a lost task confirms, and the text that reports it.

A lost task is attributed by its spawn site: the innermost frame of its
creation stack (outside asyncio) that does not hand the task out to its caller.
A helper that returns the task it creates (``return asyncio.ensure_future(coro)``,
or ``task = ...; return task``) is not where the task is lost: its caller is.
A finding confirms the loss when it is at the spawn site (or at a helper's line),
or, in the same function as the spawn site, when its message names the task
there: its line (TRF003's ``task 'x' (line 14)``, TRF005's ``at line 14``) or the
local the spawn binds (TRF005's ``local 'tasks'``).  Each file is parsed and
analysed once, and only when a report points at it.

A spawn site outside the project (in installed code: a site-packages or
dist-packages folder, or the standard library; a library's task) is not the
project's to keep: no finding is looked for there, and the report names the
project's call that reached it and, when the task runs a method, the type of
the object that owns it, to be closed.
"""
from __future__ import annotations

import ast
import os
import re
import tokenize
from dataclasses import dataclass, field
from typing import Dict, List, Optional, Sequence, Set, Tuple

from flake8_taskref.analysis.api import analyse
from flake8_taskref.analysis.options import Options
from flake8_taskref.project.config import Settings
from flake8_taskref.project.view import project_view
from flake8_taskref.runtime.watch import DESTROYED, Frame, Report, in_asyncio

Finding = Tuple[int, str, str]  # line, code, message
Span = Tuple[int, int]  # first and last line

FIX = (
    "keep a reference to every task until it is done: add it to a set and call "
    "task.add_done_callback(tasks.discard), run it in an asyncio.TaskGroup, or await or cancel it"
)
# For a task created outside the project (a library's): nothing in the project
# spawned it, so there is nothing to keep; the object that owns it was dropped.
OUTSIDE_FIX = (
    "close or stop the object that started a task outside the project before your code drops it "
    "(await its close() or aclose(), or use it in an async with block)"
)
# Folders that hold installed code, not the project's.
_INSTALLED = ("site-packages", "dist-packages")


@dataclass
class FileFacts:
    """What attribution needs of one file."""

    findings: List[Finding] = field(default_factory=list)
    functions: List[Span] = field(default_factory=list)  # spans of the functions, in source order
    statements: Dict[int, Span] = field(default_factory=dict)  # line: its innermost simple statement
    bound: Dict[int, Set[str]] = field(default_factory=dict)  # line: names its statement binds
    returning: Set[int] = field(default_factory=set)  # lines of return statements
    returned: Dict[Span, Set[str]] = field(default_factory=dict)  # function: the names it returns

    def function_of(self, line: int) -> Optional[Span]:
        """The innermost function around ``line``."""
        best: Optional[Span] = None
        for span in self.functions:
            if span[0] <= line <= span[1] and (best is None or span[0] >= best[0]):
                best = span
        return best

    def hands_out(self, line: int) -> bool:
        """Whether the statement at ``line`` gives what it creates to the caller."""
        if line in self.returning:
            return True
        function = self.function_of(line)
        return function is not None and bool(self.bound.get(line, set()) & self.returned.get(function, set()))


class _Facts(ast.NodeVisitor):
    def __init__(self, facts: FileFacts) -> None:
        self.facts = facts
        self.function: Optional[Span] = None

    def _function(self, node: "ast.FunctionDef | ast.AsyncFunctionDef") -> None:
        span = (node.lineno, node.end_lineno or node.lineno)
        self.facts.functions.append(span)
        outer, self.function = self.function, span
        self.generic_visit(node)
        self.function = outer

    visit_FunctionDef = visit_AsyncFunctionDef = _function

    def generic_visit(self, node: ast.AST) -> None:
        if isinstance(node, ast.stmt) and not hasattr(node, "body"):
            span = (node.lineno, node.end_lineno or node.lineno)
            names = _bound_names(node)
            for line in range(span[0], span[1] + 1):
                self.facts.statements[line] = span
                if names:
                    self.facts.bound.setdefault(line, set()).update(names)
                if isinstance(node, ast.Return):
                    self.facts.returning.add(line)
            if isinstance(node, ast.Return) and isinstance(node.value, ast.Name) and self.function:
                self.facts.returned.setdefault(self.function, set()).add(node.value.id)
        super().generic_visit(node)


def _bound_names(node: ast.stmt) -> Set[str]:
    if isinstance(node, ast.Assign):
        targets = node.targets
    elif isinstance(node, (ast.AnnAssign, ast.AugAssign)):
        targets = [node.target]
    else:
        return set()
    return {name.id for target in targets for name in ast.walk(target) if isinstance(name, ast.Name)}


class Attributor:
    """Maps a creation stack to the static finding it confirms.

    ``static`` False: the project's configuration could not be read, so no
    finding is matched (the reports say so)."""

    def __init__(
        self, root: str, options: Optional[Options] = None, static: bool = True,
        settings: Optional[Settings] = None,
    ) -> None:
        self.root = os.path.abspath(root)
        self.options = options if options is not None else Options.build()
        # the project's settings: files are checked through the project view,
        # as the command checks them (a spawner helper of another module counts)
        self.settings = settings
        if settings is not None:
            self.options = settings.options
        self.static = static
        self._files: Dict[str, FileFacts] = {}
        self._stdlib: Optional[Tuple[str, ...]] = None  # folders of the standard library

    def facts(self, path: str) -> FileFacts:
        if path not in self._files:
            self._files[path] = self._analyse(path)
        return self._files[path]

    def findings(self, path: str) -> List[Finding]:
        return self.facts(path).findings

    def _analyse(self, path: str) -> FileFacts:
        facts = FileFacts()
        if not path.endswith(".py"):
            return facts
        try:
            with tokenize.open(path) as source:
                text = source.read()
            tree = ast.parse(text, path)
            _Facts(facts).visit(tree)
            if self.static and self.in_project(path):  # a library's file is parsed, not analysed
                lines = text.splitlines(True)
                if self.settings is not None:
                    settings = self.settings
                    view = project_view(settings.options, settings.project, settings.exclude,
                                        keep_trees=False)
                    errors = view.findings(path, tree, lines)
                else:
                    errors = analyse(tree, self.options, lines=lines, text=text, filename=path)
                facts.findings = [
                    (error.lineno, str(getattr(error, "code", "")), error.message) for error in errors
                ]
        except Exception:  # a file that cannot be read or analysed: no finding
            return facts
        return facts

    def spawn_site(self, stack: Sequence[Frame]) -> Tuple[Optional[Frame], List[Frame]]:
        """The spawn site in a creation stack (innermost first) and the helpers
        that handed the task out to it, innermost first.  asyncio's own frames
        are skipped; a frame is a helper only if it returns the task to code
        that called it directly (a callback that returns a task to the loop
        running it is where the task is lost)."""
        helpers: List[Frame] = []
        for index, frame in enumerate(stack):
            if in_asyncio(frame):
                continue
            caller = stack[index + 1] if index + 1 < len(stack) else None
            if caller is None or in_asyncio(caller) or not self.facts(frame[0]).hands_out(frame[1]):
                return frame, helpers
            helpers.append(frame)
        return None, []  # only asyncio's frames

    def confirms(self, site: Frame, helpers: Sequence[Frame] = ()) -> Optional[Tuple[str, int, str, str]]:
        """The finding the loss of a task spawned at ``site`` confirms: at its
        statement (or a helper's), or in its function naming the task there."""
        if not self.static:
            return None
        for path, line, _ in (site, *helpers):
            facts = self.facts(path)
            statement = facts.statements.get(line, (line, line))
            for at, code, message in facts.findings:
                if at == line or statement[0] <= at <= statement[1]:
                    return path, at, code, message
        path, line, _ = site
        facts = self.facts(path)
        function = facts.function_of(line)
        if function is None:
            return None
        names = re.compile(rf"\bline {line}\b" + "".join(
            f"|'{re.escape(name)}'" for name in sorted(facts.bound.get(line, set()))))
        for at, code, message in facts.findings:
            if facts.function_of(at) == function and names.search(message):
                return path, at, code, message
        return None

    def in_project(self, path: str) -> bool:
        """Whether ``path`` is the project's code, not installed code: not in a
        folder named site-packages or dist-packages (a virtual environment's,
        the system's, or one below the root), nor in the standard library.
        Code outside the root is the project's too (tests in a folder of their
        own, with their own pytest.ini, and the code beside it)."""
        absolute = os.path.abspath(path)
        if any(folder in _INSTALLED for folder in absolute.split(os.sep)[:-1]):
            return False
        if self._stdlib is None:
            import sysconfig

            paths = sysconfig.get_paths()
            self._stdlib = tuple(
                {os.path.abspath(paths[name]) + os.sep for name in ("stdlib", "platstdlib") if name in paths}
            )
        return not absolute.startswith(self._stdlib)

    def show(self, path: str) -> str:
        """``path`` relative to the root when it is inside it, else absolute."""
        absolute = os.path.abspath(path)
        if absolute.startswith(self.root + os.sep):
            return os.path.relpath(absolute, self.root)
        return absolute


def format_reports(reports: Sequence[Report], attributor: Attributor) -> str:
    """One message for all the reports of a test."""
    destroyed = sum(1 for report in reports if report.kind == DESTROYED)
    lost = len(reports) - destroyed
    parts = []
    if destroyed:
        parts.append(f"{destroyed} pending task(s) destroyed by the garbage collector")
    if lost:
        parts.append(f"{lost} task exception(s) never retrieved")
    lines = ["taskref-gc: " + " and ".join(parts) + " during this test"]
    outside = inside = 0  # destroyed tasks created outside the project, and the others
    for report in reports:
        described, created_outside = _describe(report, attributor)
        lines.extend(described)
        if report.kind == DESTROYED:
            outside += created_outside
            inside += not created_outside
    if inside:
        lines.append("fix: " + FIX)
    if outside:
        lines.append("fix: " + OUTSIDE_FIX)
    if not destroyed:
        lines.append("fix: await the task, or read task.exception() in a done callback")
    return "\n".join(lines)


def _describe(report: Report, attributor: Attributor) -> Tuple[List[str], bool]:
    """The lines of one report, and whether the task was created outside the project."""
    what = "destroyed while pending" if report.kind == DESTROYED else "exception never retrieved"
    # Python 3.13.0 names the tasks of a task factory 'None'
    head = "- " + (report.name if report.name not in ("", "None") else "a task")
    if report.coroutine:
        head += f" running {report.coroutine}()"
    if report.defined is not None:
        head += f" (defined at {_at(attributor, report.defined)})"
    lines = [head + f": {what}"]
    if report.exception is not None:
        lines.append(f"  exception: {report.exception}")
    if not report.created:
        lines.append(
            "  created at: unknown (not by a loop's create_task, e.g. asyncio.Task() called directly; "
            "--taskref-gc-debug records it)"
        )
        return lines, False
    frames = report.frames()
    site, helpers = attributor.spawn_site(frames)
    if site is None:
        lines.append("  created at: unknown (only asyncio's own frames were noted)")
        return lines, False
    created = f"  created at {_at(attributor, site[:2])} in {site[2]}"
    if helpers:
        outer = helpers[-1]
        created += f", through {outer[2]}() at {_at(attributor, outer[:2])}"
    if not attributor.in_project(site[0]):
        lines.extend(_outside(report, attributor, created, frames[frames.index(site) + 1:]))
        return lines, True
    lines.append(created)
    if not attributor.static:
        lines.append("  static findings: not matched (the project's configuration could not be read)")
        return lines, False
    confirmed = attributor.confirms(site, helpers)
    if confirmed is not None:
        path, line, code, message = confirmed
        lines.append(f"  confirms {code} at {_at(attributor, (path, line))}: {message}")
    elif report.kind != DESTROYED:
        lines.append(
            "  no TRF finding for this spawn (the TRF codes are about lost tasks, not unread exceptions)"
        )
    elif helpers:
        lines.append(
            f"  no TRF finding for this spawn: name the helper {helpers[-1][2]}() in taskref-spawners "
            "to have its callers checked"
        )
    else:
        lines.append("  no TRF finding for this spawn: the static analysis does not see this task lost")
    return lines, False


def _outside(report: Report, attributor: Attributor, created: str, callers: Sequence[Frame]) -> List[str]:
    """A task created outside the project (by a library): no spawn of the
    project to keep it or to check (the analysis is not run on the library);
    the object that owns it was dropped while it was pending.  ``callers``:
    the frames outside the spawn site, innermost first."""
    caller = next(
        (frame for frame in callers if not in_asyncio(frame) and attributor.in_project(frame[0])), None
    )
    created += ", outside the project"
    if caller is not None:
        created += f", called from {_at(attributor, caller[:2])} in {caller[2]}"
    lines = [created]
    if report.kind != DESTROYED:
        return lines
    if report.owner is not None:
        short = report.owner.rsplit(".", 1)[-1]
        lines.append(
            f"  owned by the {report.owner} object whose method it runs, which was dropped with "
            f"the task still pending: close the {short} before dropping it"
        )
    elif caller is not None:
        lines.append(
            f"  started by code outside the project for the call at {_at(attributor, caller[:2])}: "
            "close or stop what that call opened before dropping it (if nothing can be closed, "
            "that code loses the task)"
        )
    else:
        lines.append(
            "  started by code outside the project: close or stop the object that started it before "
            "dropping it (if nothing can be closed, that code loses the task)"
        )
    return lines


def _at(attributor: Attributor, where: Tuple[str, int]) -> str:
    return f"{attributor.show(where[0])}:{where[1]}"
