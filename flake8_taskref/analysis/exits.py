"""The explicit ways out, recorded in the one pass (for ``paths.py`` and ``rules.py``).

``record_exits`` wraps the recorder's statement handlers: a ``return``, ``raise``,
``break`` or ``continue`` of a function is added to ``Scope.exits`` with the
statement context around it; a ``return`` marks every loop around it as left, a ``break`` the loop
it leaves (``Scope.loop_exits``: where each exit ends); a ``while True:`` at the
top of a function body (in nothing but ``suppress`` blocks) is a loop the frame
may never leave (``Scope.forever``); a ``try`` with a handler of every
``Exception`` that does not re-raise marks its function (``Scope.catches_all``:
the author kept the task from failing, TRF008); ``fut.result(timeout)`` under
no ``try`` is a timeout site of TRF003 (``Scope.timeouts``).  Nothing is decided here.
"""
from __future__ import annotations

import ast
from typing import Callable, Optional, Tuple, Type

from flake8_taskref.analysis import names as N
from flake8_taskref.analysis.facts import LOOP, SUPPRESS, TRY, Exit, Scope, TimeoutSite
from flake8_taskref.analysis.scopes import Recorder, end_of, pos_of

_EXITS = (ast.Return, ast.Raise, ast.Break, ast.Continue)
_BROAD = frozenset({"Exception", "BaseException"})
# the statements that may clear an attribute or suspend (``_self_clears``)
_PAUSES: Tuple[Type[ast.stmt], ...] = (
    ast.Expr, ast.Assign, ast.AugAssign, ast.AnnAssign, ast.Return, ast.AsyncWith, ast.AsyncFor,
)


def record_exits(recorder: Recorder) -> None:
    """Record the explicit exits of functions as the recorder meets them."""
    table = recorder._stmt

    def recording(handler: Callable[[ast.stmt], None]) -> Callable[[ast.stmt], None]:
        def record(node: ast.stmt) -> None:
            scope = recorder.scope
            if isinstance(node, ast.Return):
                for frame in recorder.frames:
                    if frame[0] == LOOP:
                        scope.loop_exits.setdefault(id(frame[1]), []).append(end_of(node))
            elif isinstance(node, ast.Break):
                for frame in reversed(recorder.frames):
                    if frame[0] == LOOP:
                        scope.loop_exits.setdefault(id(frame[1]), []).append(end_of(node))
                        break
            if scope.kind == Scope.FUNCTION:
                scope.exits.append(Exit(node, recorder.frames))
            handler(node)
        return record

    for kind in _EXITS:
        table[kind] = recording(table.get(kind, recorder._generic))

    loop = table[ast.While]

    def forever(node: ast.stmt) -> None:
        test = getattr(node, "test", None)
        if (
            isinstance(node, ast.While)
            and all(frame[0] == SUPPRESS for frame in recorder.frames)
            and recorder.scope.kind == Scope.FUNCTION
            and isinstance(test, ast.Constant)
            and test.value
        ):
            recorder.scope.forever.append(node)
        loop(node)

    table[ast.While] = forever

    attempt = table[ast.Try]

    def catching(node: ast.stmt) -> None:
        if recorder.scope.kind == Scope.FUNCTION and any(
            _swallows(handler) for handler in node.handlers  # type: ignore[attr-defined]
        ):
            recorder.scope.catches_all = True
        attempt(node)

    table[ast.Try] = catching

    for statement in (ast.Expr, ast.Assign, ast.Return):
        table[statement] = _timed_waits(recorder, table.get(statement, recorder._generic))
    for paused in _PAUSES:
        table[paused] = _self_clears(recorder, table.get(paused, recorder._generic))


def _self_clears(recorder: Recorder, handler: Callable[[ast.stmt], None]) -> Callable[[ast.stmt], None]:
    """``self.attr = None`` in a coroutine function, and, after such a clear, each statement
    that suspends: the task of a method that clears the attribute holding it,
    then waits, runs on held by nobody (``coroutines.cleared_by_itself``)."""
    def record(node: ast.stmt) -> None:
        scope = recorder.scope
        if scope.kind == Scope.FUNCTION:
            value = getattr(node, "value", None)
            suspends = isinstance(value, ast.Await) or isinstance(node, (ast.AsyncWith, ast.AsyncFor))
            if scope.clears and suspends:
                scope.pauses.append((pos_of(node), recorder.frames))
            if isinstance(value, ast.Call) or isinstance(node, (ast.Assign, ast.Return)):
                handed = value.args if isinstance(value, ast.Call) else [value]
                scope.handed.update(a for a in map(_self_attribute, handed) if a is not None)
            target = node.targets[0] if isinstance(node, ast.Assign) and len(node.targets) == 1 else None
            if (
                isinstance(target, ast.Attribute)
                and isinstance(target.value, ast.Name)
                and target.value.id == "self"
            ):
                if isinstance(value, ast.Constant) and value.value is None and isinstance(
                    scope.node, ast.AsyncFunctionDef
                ):
                    scope.clears.append((target.attr, pos_of(node), recorder.frames))
        handler(node)
    return record


def _timed_waits(recorder: Recorder, handler: Callable[[ast.stmt], None]) -> Callable[[ast.stmt], None]:
    """``fut.result(timeout)`` (or ``exception``) as a statement, under no ``try``
    or ``suppress`` of its function: a timeout there unwinds the frame with
    ``fut`` still pending, for the wait does not cancel it (a timeout site of
    TRF003 that does not finish what it waits on; in a ``try``, TRF007 follows
    the handler's exit)."""
    def record(node: ast.stmt) -> None:
        call = getattr(node, "value", None)
        if (
            recorder.scope.kind == Scope.FUNCTION
            and isinstance(call, ast.Call)
            and isinstance(call.func, ast.Attribute)
            and call.func.attr in N.WAITING_FUTURE_METHODS
            and isinstance(call.func.value, ast.Name)
            and (call.args or any(k.arg == "timeout" for k in call.keywords))
            and not any(frame[0] in (TRY, SUPPRESS) for frame in recorder.frames)
        ):
            label = f"{call.func.value.id}.{call.func.attr}"
            site = TimeoutSite(call, label, end_of(call), recorder.frames, waits_only=True)
            recorder.scope.timeouts.append(site)
        handler(node)
    return record


def _swallows(handler: ast.excepthandler) -> bool:
    """A handler of every ``Exception`` (or a bare one) that does not end by raising."""
    caught = N.exception_names(handler.type)  # type: ignore[attr-defined]
    body = handler.body  # type: ignore[attr-defined]
    return (caught is None or bool(caught & _BROAD)) and not isinstance(body[-1], ast.Raise)


def _self_attribute(node: object) -> Optional[str]:
    """``attr`` of ``self.attr``."""
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "self":
        return node.attr
    return None
