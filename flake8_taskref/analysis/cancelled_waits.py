"""TRF010 (opt-in): the tasks an awaited ``asyncio.wait()`` leaves running when the
function is cancelled while it waits.

``await asyncio.wait(tasks)`` returns the done and the pending tasks; cancelled
itself (a caller's ``wait_for`` or ``asyncio.timeout()``, a shutdown that cancels
the task running the function), it raises ``CancelledError`` and cancels nothing it
waits on (asyncio's documentation: unlike ``wait_for()``, it does not cancel the
futures).  A task the function made that is held only by its locals is then
pending when the cancellation unwinds the frame, unless a ``finally`` or a handler
of the cancellation on the way out finishes or keeps it.  This is an implicit exit
(issue 32's path rules, TRF007, follow explicit ones), so the rule is off by
default.  The one pass records each wait of a coroutine function after a handle is
made (``Scope.awaits``, in ``exits.py``); here, after the pass, each handle waited
on there is followed out from it, as a timeout is for TRF003
(``rules.ModuleRules._lost_on_unwind``).  Nothing here walks a tree.
"""
from __future__ import annotations

import ast
from typing import Any, FrozenSet, List, Optional, Set, Tuple

import builtins

from flake8_taskref.analysis import names as N
from flake8_taskref.analysis.facts import TRY, Frames, Group, Scope, Spawn
from flake8_taskref.analysis.lookups import exclusive, waits_for_event
from flake8_taskref.analysis.gathers import Asked, first_lost
from flake8_taskref.analysis.paths import held_by_forever

Spawns = List[Tuple[Spawn, str]]
# The classes a handler names that surely do not catch ``CancelledError`` (a
# ``BaseException`` since Python 3.8): the builtin subclasses of ``Exception``.
_NOT_CANCELS = frozenset(
    name for name, value in vars(builtins).items() if isinstance(value, type) and issubclass(value, Exception)
) | {"InvalidStateError", "IncompleteReadError", "LimitOverrunError", "QueueEmpty", "QueueFull"}


def lost_on_cancel(rules: Asked, scope: Scope, live: List[Tuple[Group, Spawns]], until: Any) -> None:
    """TRF010 at each ``asyncio.wait()`` that leaves a local-only task when the
    function is cancelled there: the first handle it leaves, and how many more."""
    if not isinstance(scope.node, ast.AsyncFunctionDef):
        return
    for start, frames, end, lets_go, call, _ in scope.awaits:
        if not lets_go or call is None or scope.imports.resolve(call.func) != N.WAIT:
            continue
        waited = _waited_names(call, scope)
        if not waited:
            continue
        names = _cancels(frames)
        lost: List[Tuple[Group, Spawn]] = []
        for group, spawns in live:
            if id(group) in rules._reported or held_by_forever(rules, group, spawns, scope):
                continue
            first = min(spawns, key=lambda item: item[0].pos)[0]
            if first.pos >= start or exclusive(first.frames, frames):
                continue
            reachable, _ = rules._reachable(group, scope)
            if not any(g.name in waited for g in reachable if g.name):
                continue  # not waited on here
            if any(waits_for_event(spawn.runs) or rules._never_suspends(spawn, scope) for spawn, _ in spawns):
                continue  # done in its next step once the event is set, or in its first one
            fate = rules._fate(group, scope)
            if any(p < start for p in fate):
                continue  # finished or kept before the wait (a list stored, then filled), or opaque: (0, 0)
            if not rules._lost_on_unwind(frames, fate, names, end, until(group, group.name, scope)):
                continue
            rules._reported.add(id(group))
            lost.append((group, first))
        if lost:
            group, first, others = first_lost(lost)
            reachable, _ = rules._reachable(group, scope)
            holder = next(g.name for g in reachable if g.name in waited)
            rules._error("TRF010", call, holder=holder, line=first.node.lineno, others=others)


def _waited_names(call: ast.Call, scope: Scope) -> Set[str]:
    """The locals whose tasks ``asyncio.wait(fs)`` waits on: ``fs`` itself, or the
    names in a display (``{reader, writer}``, ``[*tasks, stop]``), each bound once
    in the function (a name bound again may hold something else by then)."""
    fs: Optional[ast.expr] = call.args[0] if call.args else None
    items = fs.elts if isinstance(fs, (ast.List, ast.Tuple, ast.Set)) else [fs] if fs is not None else []
    names = set()
    for item in items:
        value = item.value if isinstance(item, ast.Starred) else item
        if isinstance(value, ast.Name) and len(scope.bindings.get(value.id, ())) == 1:
            names.add(value.id)
    return names


def _cancels(frames: Frames) -> FrozenSet[str]:
    """The names of the handlers around the wait that may catch a ``CancelledError``:
    ``CancelledError`` and ``BaseException``, and any other name but a builtin
    ``Exception`` class (an alias, ``from asyncio import CancelledError as
    Cancelled``; a constant, ``except STOP_ERRORS:``), taken to catch it."""
    names = set(N.CANCELS)
    for kind, node, _ in frames:
        for handler in getattr(node, "handlers", ()) if kind == TRY else ():
            names.update(name for name in N.exception_names(handler.type) or () if name not in _NOT_CANCELS)
    return frozenset(names)
