"""TRF009: a task of ``self.attr`` cancelled and dropped while its coroutine waits again.

``self.attr = asyncio.create_task(self.run())`` in one method, and in another
``self.attr.cancel()`` followed at once by ``self.attr = None`` (or any store,
or ``del``): ``cancel()`` only asks, and the loop's queue holds the task until
its next step delivers the ``CancelledError``.  If ``run`` then waits again
while it handles the cancellation (an ``await`` in a ``finally``, or in a
handler of ``CancelledError``, ``BaseException`` or a bare ``except``), nothing
holds the task while it waits: the attribute was its last strong reference.

Only that shape is followed, and only where each part is known:

* the spawn is one of asyncio's or a loop's (``rules.label``: not a task
  group's ``create_task``), and the storing method does not await
  ``self.attr`` after it in the same block (the caller's task would hold it);
* ``run`` is a coroutine method of the class, defined once (``own_coroutine``),
  that does not keep its own task;
* its wait is a statement in the ``finally``, or in the first handler of a
  cancellation (asyncio's ``CancelledError``, ``BaseException``, a bare
  ``except``; after no ``raise``, ``return`` or ``if ...: raise`` of it), of a
  ``try`` whose body suspends, in no ``if`` or loop inside that cleanup (it
  runs on every cancellation that lands in the body), and awaits a call that
  may suspend (``coroutines.suspends_at``: not one known never to);
* the cancel and the drop are two statements in a row (or the cancel ends an
  ``if`` with no ``else`` that the drop follows), in a function of the
  same class (not of a nested class), on ``self``; a function that hands
  ``self.attr`` on anywhere (``task = self.attr``, ``keep(self.attr)``:
  ``Scope.passed``) stays silent, as does one storing the task that does.

The one pass records the parts (``exits.py``); nothing here walks a tree.
"""
from __future__ import annotations

import ast
from typing import Any, Dict, Iterator, List, Optional, Tuple

from flake8_taskref.analysis.coroutines import Keepers, own_coroutine, suspends_at
from flake8_taskref.analysis.cancelled import local_drops, waits_in
from flake8_taskref.analysis.finished import done_where
from flake8_taskref.analysis.facts import (
    BRANCH, LOOP, SUPPRESS, TRY, TRY_BODY, TRY_FINALLY, TRY_HANDLERS, U_FINISH, U_KEEP, Binding, Frames,
    Group, Pos, Scope, Spawn,
)
from flake8_taskref.analysis.scopes import end_of, pos_of

Live = List[Tuple[Group, List[Tuple[Spawn, str]]]]


def dropped_after_cancel(rules: Any, scope: Scope, live: Live, keepers: Keepers, stores: bool = True) -> None:
    """TRF009 at each drop of a task ``scope`` stores in ``self.attr`` (not asked
    without ``stores``: a sync function that runs the loop), and of one a local
    holds (``_dropped_local``)."""
    _dropped_local(rules, scope, live, keepers)
    cls = scope.cls if stores else None
    if cls is None:
        return
    for attr, spawn in scope.self_stores:
        coro = spawn.argument
        if coro is None or not isinstance(coro.func, ast.Attribute) or attr in scope.passed:
            continue
        method = own_coroutine(coro.func, scope)
        if method is None or (id(method.parent), coro.func.attr) in keepers:
            continue
        if rules.label(spawn, scope) is None:
            continue  # a task group's ``create_task``, a receiver not shown to be a loop
        if any(awaited == attr and at > spawn.pos and frames == spawn.frames
               for awaited, at, frames in scope.awaited_attrs):
            continue  # ``await self.attr`` after the store: the caller's task holds it while it runs
        wait = _cleanup_wait(rules, method)
        if wait is None:
            continue
        for where, cancel, drop in _drops(cls, attr, method):
            if id(drop) not in rules._reported:
                rules._reported.add(id(drop))
                rules._error(
                    "TRF009", drop, holder=f"'self.{attr}'", cancel=cancel.lineno, where="here",
                    coroutine=coro.func.attr, wait=wait,
                )


def _dropped_local(rules: Any, scope: Scope, live: Live, keepers: Keepers) -> None:
    """TRF009 where a path of ``scope`` ends in ``local.cancel()`` and then
    drops the local (``exits.ends_with_cancel``): a ``return`` or ``raise``
    that leaves the frame, a store or ``del`` of the local, or the function's
    end; reported at the drop (at the cancel, for the function's end)."""
    drops = local_drops(scope) if live and not scope.generator else []
    captured = rules.captured(scope)
    plain: Dict[str, bool] = {}  # (once per name: a function of thousands of drops)
    cancels = scope.cancels  # (an earlier ``t.cancel()`` does not finish it: ``t.cancel(); t.cancel()``)
    for cancel, drop, frames, passed in drops:
        receiver = cancel.value.func.value  # type: ignore[attr-defined]
        name, at = receiver.id, pos_of(receiver)
        if name not in plain:
            plain[name] = all(map(_plain, scope.bindings.get(name, ())))
        waits = waits_in(getattr(drop, "value", None) or getattr(drop, "exc", None))  # (``return await x``)
        leaves = drop is None or _leaves(drop, frames)
        if waits or not leaves or name in captured or name in scope.declared or (
                not plain[name] or done_where(frames, name, scope)):
            continue  # (``if task.done(): task.cancel(); return``: nothing to cancel)
        for group, spawns in live:
            events = rules.events_of(group)
            if group.name != name or (U_FINISH, at) not in events:
                continue
            reachable, kept_at = rules._reachable(group, scope)
            found = [_cleanup_of(rules, spawn, scope, keepers) for spawn, _ in spawns if spawn.pos < at]
            # (what the path runs by, or the drop itself, touches it: ``return await task``)
            ends = [drop] if isinstance(drop, (ast.Return, ast.Raise)) else []  # (not ``del task``)
            spans = [(pos_of(one), end_of(one)) for one in (*passed, *ends)]
            if (id(group) in rules._reported or kept_at or any(  # (a temporary it went into: ``wait({t, u}``)
                    rules.opaque(other) or other is not group and not _waited_with_others(rules, other)
                    for other in reachable)
                    or any(kind == U_KEEP or kind == U_FINISH and pos < at and pos not in cancels
                           or any(start <= pos <= stop for start, stop in spans) for kind, pos in events)
                    or len(found) != len(spawns) or None in found):
                break  # (awaited before the cancel, on some path: done by then; ``result(timeout)`` is not)
            coroutine, wait = found[0]  # type: ignore[misc]
            rules._reported.add(id(group))
            where = "here" if drop is not None else "when the function ends"
            rules._error("TRF009", drop or cancel, holder=f"local '{name}'", cancel=cancel.lineno,
                         where=where, coroutine=coroutine, wait=wait)
            break


def _waited_with_others(rules: Any, temporary: Group) -> bool:
    """Is ``temporary`` an unnamed display of two or more tasks that nothing but
    an ``asyncio.wait()`` that may return with some pending takes (its result not
    kept): ``await asyncio.wait({stopping, task}, return_when=FIRST_COMPLETED)``?"""
    wait = temporary.wait
    items = getattr(wait.node.args[0], "elts", ()) if wait is not None and wait.node.args else ()
    return not temporary.name and len(items) > 1 and not rules.events_of(temporary)


def _plain(binding: Binding) -> bool:
    """Is the binding ``name = value`` or ``name: T = value`` (a call, or ``None``)?
    Not a walrus, a loop's target, ``with ... as name``, ``except ... as name``: what
    those hold, and which of them a later use sees, is not followed here."""
    statement = binding.stmt
    if isinstance(statement, ast.Assign):
        targets, value = statement.targets, statement.value
    elif isinstance(statement, ast.AnnAssign) and statement.value is not None:
        targets, value = [statement.target], statement.value
    else:
        return False
    return (len(targets) == 1 and isinstance(targets[0], ast.Name) and targets[0].id == binding.name
            and (isinstance(value, ast.Call) or isinstance(value, ast.Constant) and value.value is None))


def _leaves(drop: ast.stmt, frames: Frames) -> bool:
    """Does ``drop`` let the local go: a store or ``del`` of it; a ``return``
    under no ``finally`` (which may still await the task); a ``raise`` under no
    ``try`` that may catch it or run a ``finally``, and no ``suppress``?"""
    if not isinstance(drop, (ast.Return, ast.Raise)):
        return True
    for kind, attempt, part in frames:
        if kind == SUPPRESS and isinstance(drop, ast.Raise):
            return False
        if kind == TRY and (getattr(attempt, "finalbody", None) or (
                isinstance(drop, ast.Raise) and part == TRY_BODY and getattr(attempt, "handlers", None))):
            return False
    return True


def _cleanup_of(rules: Any, spawn: Spawn, scope: Scope, keepers: Keepers) -> Optional[Tuple[str, int]]:
    """The name of the coroutine function of this file that ``spawn`` runs and
    the line where its cleanup waits, if it does (``_cleanup_wait``)."""
    coro = spawn.argument
    method = own_coroutine(coro.func, scope) if coro is not None else None
    if method is None or (id(method.parent), method.node.name) in keepers:  # type: ignore[attr-defined]
        return None
    wait = _cleanup_wait(rules, method)
    return None if wait is None else (method.node.name, wait)  # type: ignore[attr-defined]


def _cleanup_wait(rules: Any, method: Scope) -> Optional[int]:
    """The line of the first wait of ``method``'s cleanup that runs whenever a
    cancellation lands in its ``try`` body, if there is one; or, after a loop
    of the function's top level that a handler of the cancellation ``break``s
    out of (``except CancelledError: break`` in the loop's body), of the first
    wait at the top level after the loop (``_after_break``)."""
    after = _after_break(method)
    for pos, frames, call in method.cleanup_waits:
        if call is None or not frames and (after is None or pos < after):
            continue  # an ``async with`` or ``async for``, ``await fut``: not known to suspend
        if not frames and suspends_at(call, method, rules.facts, rules.summaries, rules.resolver):
            return pos[0]
        for at, (kind, attempt, part) in enumerate(frames):
            if kind != TRY or id(attempt) not in method.waiting_tries:
                continue
            if part == TRY_HANDLERS and not _handles_cancel(method, attempt, pos):
                continue
            if part in (TRY_FINALLY, TRY_HANDLERS) and not any(
                frame[0] in (BRANCH, LOOP) for frame in frames[at + 1:]
            ):
                if suspends_at(call, method, rules.facts, rules.summaries, rules.resolver):
                    return pos[0]
                break
    return None


def _after_break(method: Scope) -> Optional[Pos]:
    """The end of a loop of ``method``'s top level whose body is left by a
    ``break`` at the top of the first handler of a cancellation (of a ``try``
    that suspends, right in the loop's body), when no ``return`` or ``raise``
    follows the loop: the waits after it are the cleanup's."""
    for exit in method.exits:
        frames = exit.frames
        if type(exit.node) is not ast.Break or len(frames) != 2 or frames[0][0] != LOOP:
            continue
        kind, attempt, part = frames[1]
        if kind != TRY or part != TRY_HANDLERS or id(attempt) not in method.waiting_tries:
            continue
        if _handles_cancel(method, attempt, pos_of(exit.node)):
            end = end_of(frames[0][1])
            # (no ``return`` or ``raise`` after the loop, in no loop of its own: ``if closed: return``)
            leaving = [e for e in method.exits if isinstance(e.node, (ast.Return, ast.Raise))
                       and not any(f[0] == LOOP for f in e.frames)]
            if not any(pos_of(e.node) > end for e in leaving):
                return end
    return None


def _handles_cancel(method: Scope, attempt: ast.AST, pos: Pos) -> bool:
    """Is the wait at ``pos`` in a handler of ``attempt`` that a cancellation
    reaches: the first of its handlers to catch ``asyncio.CancelledError``
    (by that name from asyncio, ``BaseException`` or a bare ``except``), with
    no ``if`` that leaves (``if isinstance(exc, CancelledError): raise``) or
    ``raise`` before the wait?"""
    for handler in getattr(attempt, "handlers", ()):
        if not _catches_cancel(handler, method):
            continue
        if not pos_of(handler) <= pos <= end_of(handler):
            return False  # an earlier handler catches it first
        return not any(
            pos_of(stmt) < pos and (
                isinstance(stmt, (ast.Raise, ast.Return)) or (
                    isinstance(stmt, ast.If) and isinstance(stmt.body[-1], (ast.Raise, ast.Return)))
            )
            for stmt in handler.body
        )
    return False


def _catches_cancel(handler: ast.excepthandler, method: Scope) -> bool:
    caught = getattr(handler, "type", None)
    if caught is None:
        return True
    for name in caught.elts if isinstance(caught, ast.Tuple) else [caught]:
        if isinstance(name, ast.Name) and name.id == "BaseException":
            return True
        qualname = method.imports.resolve(name)
        if qualname is not None and qualname.startswith("asyncio.") and qualname.endswith(".CancelledError"):
            return True
    return False


def _drops(cls: Scope, attr: str, method: Scope) -> Iterator[Tuple[Scope, ast.Expr, ast.stmt]]:
    """``self.attr.cancel()`` then a drop of ``self.attr``, in the class's
    functions other than ``method`` and those in it (not in a nested class,
    whose ``self`` is another object); not in one that hands ``self.attr`` on
    (``task = self.attr``, ``self._stopping.add(self.attr)``)."""
    stack = [child for child in cls.children if child is not method and child.kind != Scope.CLASS]
    while stack:
        scope = stack.pop()
        stack.extend(child for child in scope.children if child.kind != Scope.CLASS)
        for dropped, cancel, drop in scope.cancel_drops:
            if dropped == attr and attr not in scope.passed:
                yield scope, cancel, drop
