"""A task's fate on the paths of its function (TRF007, and two long-lived frames).

The one pass records every explicit exit of a function, a ``return``, ``raise``,
``break`` or ``continue`` with the statement context around it (``Scope.exits``,
recorded by ``exits.py``), and where ``cancel()`` is called (``Scope.cancels``).
After the pass the rules ask, here, for a handle that is safe on the usual path,
whether an exit leaves the frame with it still pending; and, for a handle they
would report, whether a frame that lives (a loop that nothing
leaves, a local that outlives the ``wait`` it took part in) holds it.  Nothing
here walks a tree: the positions of the nodes recorded are compared.  Where the
path cannot be told, the answer is "not lost" (see docs/how-it-works.md).  What
it asks of the rules is ``Asked``.
"""
from __future__ import annotations

import ast
import bisect
from typing import Any, Callable, Dict, List, Optional, Protocol, Sequence, Set, Tuple

from flake8_taskref.analysis import names as N
from flake8_taskref.analysis.facts import (
    BRANCH, LOOP, SUPPRESS, TRY, TRY_BODY, TRY_HANDLERS, U_FINISH, U_FLOW, U_GUARD, U_KEEP, U_RESULT,
    EndExit, Exit, Frames, Group, Pos, Scope, Spawn, Use, WaitSite, YieldExit,
)
from flake8_taskref.analysis.lookups import (
    assigned_value, breaks_when_empty, completion_loops, done_only, done_site, element_uses, exclusive,
    first_arguments, innermost_loop, is_current_task, left_by_test_only, others_waited, polled_tasks,
    pool_passes, runs_nothing_after, shadowed, waits_for_event, woken, LEAVING_LOOPS,
)
from flake8_taskref.analysis.scopes import end_of, pos_of

Spawns = List[Tuple[Spawn, str]]
Suspends = Callable[[ast.Call], bool]
_LOOP_EXITS = (ast.Break, ast.Continue)
_EXITS = (ast.Return, ast.Raise, ast.Break, ast.Continue)
# what a wait raises when it is cancelled or times out; the statements that end a handler in it
_ENDS_WAIT = frozenset({"CancelledError", "TimeoutError"})
_SIMPLE = (ast.Expr, ast.Pass, ast.Assign, ast.AugAssign, ast.AnnAssign)
# what finishes a task on a path: awaited, cancelled, kept, or its result taken
_FINISHED = (U_FINISH, U_KEEP, U_RESULT)


class Asked(Protocol):
    """What this module asks of the rules (``rules.ModuleRules``): the handles
    already reported, where a handle goes and what happens to it, its name, and
    the finding at a spawn."""

    _reported: Set[int]

    def flows_of(self, group: Group) -> List[Tuple[Any, Use]]: ...

    def _fate(self, group: Group, scope: Scope, kinds: Tuple[int, ...] = ...) -> List[Pos]: ...

    def _reachable(self, group: Group, scope: Scope) -> Tuple[List[Group], List[Pos]]: ...

    def _display(self, group: Group, reachable: List[Group], scope: Scope) -> str: ...

    def _spawn_error(self, code: str, spawn: Spawn, label: str, **fields: Any) -> None: ...


def _span(body: Sequence[ast.stmt]) -> Tuple[Pos, Pos]:
    return pos_of(body[0]), end_of(body[-1])


def _inside(pos: Pos, body: Sequence[ast.stmt]) -> bool:
    if not body:
        return False
    first, last = _span(body)
    return first <= pos <= last


def _apart(pos: Pos, frames: Frames) -> bool:
    """Is ``pos`` in another branch of an ``if``/``match`` around the exit?"""
    for kind, node, detail in frames:
        if kind != BRANCH:
            continue
        if isinstance(node, ast.If):
            bodies: List[Sequence[ast.stmt]] = [node.body, node.orelse]
        else:
            bodies = [case.body for case in getattr(node, "cases", ())]
        if any(i != detail and _inside(pos, body) for i, body in enumerate(bodies)):
            return True
    return False


def _polled_around(pos: Pos, frames: Frames) -> bool:
    """Is ``pos`` the task a ``while not task.done():`` around the exit polls?
    The body runs only while the task is pending: the poll finishes it for what
    follows the loop, not for an exit inside it."""
    for kind, node, _ in frames:
        if kind == LOOP and isinstance(node, ast.While):
            if any(pos_of(polled) == pos for polled in polled_tasks(node.test, negated_only=True)):
                return True
    return False


def _returning_branches(scope: Scope) -> List[Tuple[Pos, Pos, Pos]]:
    """The branches of an ``if`` that end in a ``return`` (their first and last
    positions, and the end of the ``if``): a task made there is on no path to
    an exit after the ``if``.  (What such a branch *does* to a task made before
    it still counts at those exits: which way its test went may say whether the
    task is done, ``if task in pending: task.cancel(); return``.)"""
    found: List[Tuple[Pos, Pos, Pos]] = []
    for exit in scope.exits:
        if not isinstance(exit.node, ast.Return):
            continue
        for kind, node, part in exit.frames:
            if kind == BRANCH and isinstance(node, ast.If):
                body = node.body if part == 0 else node.orelse
                if body and body[-1] is exit.node:
                    found.append((*_span(body), end_of(node)))
    return found


def _made_in_returning(spawns: Spawns, branches: List[Tuple[Pos, Pos, Pos]]) -> Dict[int, Pos]:
    """For each spawn made in a branch that ends in a ``return``, the end of
    the first such ``if`` around it: no exit after that is on its path."""
    ends: Dict[int, Pos] = {}
    for spawn, _ in spawns:
        after = [end for first, last, end in branches if first <= spawn.pos <= last]
        if after:
            ends[id(spawn)] = min(after)
    return ends


def _timed_out(exit: Exit, scope: Scope) -> List[Pos]:
    """Where a ``try`` around the exit waits with a timeout, ``return
    fut.result(timeout)`` (or ``x = ...``, or ``exception(...)``, also as the
    argument of a call: ``return bool(fut.result(5))``), when the exit is in a
    handler of that ``try`` that catches the timeout: on that path the wait
    ended with the future pending (the positions of ``fut``)."""
    found = []
    for kind, node, detail in exit.frames:
        if kind != TRY or detail != TRY_HANDLERS:
            continue
        at = pos_of(exit.node)
        handler = next((h for h in getattr(node, "handlers", ()) if _inside(at, h.body)), None)
        if handler is None or not _catches_timeout(handler, scope):
            continue
        for statement in getattr(node, "body", ()):
            plain = isinstance(statement, (ast.Return, ast.Assign, ast.Expr))
            future = _timed_future(statement) if plain else None
            if isinstance(future, ast.Name):
                found.append(pos_of(future))
    return found


def _timed_future(statement: ast.stmt) -> Optional[ast.expr]:
    """``fut`` of a statement whose value is ``fut.result(timeout)`` (or
    ``exception``): a wait of a ``concurrent.futures.Future`` given a timeout;
    also the first argument of a call that is the value (``bool(fut.result(5))``,
    two calls deep: apprise's XMPP ``send``, a miss of the thirty-seventh trial),
    which is evaluated first."""
    for call in first_arguments(getattr(statement, "value", None), 3):
        if N.timed_result(call) and isinstance(call.func, ast.Attribute):
            return call.func.value
    return None


# where asyncio and concurrent.futures define their ``TimeoutError`` (the builtin one since 3.11)
_TIMEOUT_CLASSES = frozenset({
    "asyncio.TimeoutError", "asyncio.exceptions.TimeoutError", "concurrent.futures.TimeoutError",
    "concurrent.futures._base.TimeoutError", "builtins.TimeoutError",
})


def _catches_timeout(handler: ast.ExceptHandler, scope: Scope) -> bool:
    """Does the handler catch the timeout of a wait: a bare one, a name of
    ``TIMEOUT_EXCEPTIONS``, or a ``TimeoutError`` imported under another name
    (``from concurrent.futures import TimeoutError as FuturesTimeoutError``)?
    (Here catching is what reports, so a class that cannot be read does not.)"""
    caught = N.exception_names(handler.type)
    if caught is None or caught & N.TIMEOUT_EXCEPTIONS:
        return True
    kinds = handler.type.elts if isinstance(handler.type, ast.Tuple) else [handler.type]
    named = [kind for kind in kinds if isinstance(kind, ast.Name) and not shadowed(scope, kind.id)]
    return any(scope.imports.resolve(kind) in _TIMEOUT_CLASSES for kind in named)


def _caught(
    exit: Exit, made: Spawns, fate: List[Pos], scope: Scope, suspends: Suspends, names: Set[str],
) -> Optional[Tuple[Tuple[Spawn, str], str]]:
    """Is the exit (a ``return``, ``raise`` or ``break``) in a handler of a
    ``try`` that catches a cancellation (a bare ``except``, ``BaseException``,
    ``CancelledError``), or a timeout of asyncio's timed waits, raised at the
    first wait of its body after a task is made there (or in the block of the
    ``try``, before it), with nothing handling the task before that wait?  On
    that path, what the body does after the wait is skipped, and a wait that
    lets its tasks run on when it is cancelled (``asyncio.wait``,
    ``asyncio.shield``) does not finish them::

        while running:
            try:
                got = asyncio.create_task(queue.get())
                done, pending = await asyncio.wait({got, stopped}, return_when=FIRST_COMPLETED)
                ...
            except asyncio.CancelledError:
                break

    A wait of a coroutine known never to suspend (``suspends``) is no place a
    cancellation can come from, nor the entry of an ``asyncio.timeout()`` block.
    The task still pending there, and a note naming the wait; None when the
    path cannot be told (the wait under a ``try`` or ``suppress`` of its own, or
    in another branch than the task; the task handled before it or in the
    handler)."""
    if isinstance(exit.node, ast.Continue):
        return None  # the next pass may still hold the task, and handle it
    frames, at = exit.frames, pos_of(exit.node)
    index = next((i for i in range(len(frames) - 1, -1, -1) if frames[i][0] == TRY), -1)
    if index < 0 or frames[index][2] != TRY_HANDLERS:
        return None
    attempt = frames[index][1]
    handlers: List[ast.ExceptHandler] = getattr(attempt, "handlers", [])
    handler = next((h for h in handlers if _inside(at, h.body)), None)
    if handler is None:
        return None
    caught = N.exception_names(handler.type)
    earlier = handlers[:handlers.index(handler)]  # (a handler before it catches first)
    cancelled = (caught is None or bool(caught & N.CANCELS)) and not any(
        N.catches(h, N.CANCELS) for h in earlier)
    timed = (caught is None or bool(caught & N.TIMEOUT_EXCEPTIONS)) and not any(
        N.catches(h, N.TIMEOUT_EXCEPTIONS) for h in earlier)
    if not (cancelled or timed):
        return None
    outer, body = frames[:index], frames[:index] + ((TRY, attempt, TRY_BODY),)
    spawns = [(s, label) for s, label in made if (s.frames[:index + 1] == body or s.frames == outer)
              and not (cancelled and waits_for_event(s.runs))]
    if not spawns:
        return None
    first = min(s.pos for s, _ in spawns)
    for start, wait_frames, end, lets_go, call, entry in scope.awaits:
        if start <= first or wait_frames[:index + 1] != body or entry:
            continue  # (the entry of an ``async with`` may not suspend)
        if call is not None and not suspends(call):
            continue
        if any(kind in (TRY, SUPPRESS) for kind, _, _ in wait_frames[index + 1:]):
            return None  # a handler of its own may catch it first
        if any(exclusive(s.frames, wait_frames) for s, _ in spawns):
            return None
        if cancelled:
            what = "cancellation"
        elif timed and _timed_at(scope, start, end, pos_of(attempt)):
            what = "timeout"
        else:
            return None
        # (a pass of ``for t in tasks:`` or of ``as_completed(tasks)`` finishes its own one only;
        # then any use of the tasks in the handler may handle the others: ``[t for t in tasks if ...]``)
        elements, iters = element_uses(wait_frames, names, scope), completion_loops(wait_frames, scope)
        if (elements or iters) and any(pos_of(handler) <= u.pos <= end_of(exit.node)
                                       for name in names for u in scope.uses.get(name, ())):
            return None
        for p in fate:
            if p in elements or any(pos_of(it) <= p <= end_of(it) for it in iters):
                continue
            if first <= p < start or (start <= p <= end and not lets_go):
                return None  # handled before the wait, or by it
            if pos_of(handler) <= p <= end_of(exit.node) and not _apart(p, frames):
                return None  # handled in the handler
        task = min(((s, label) for s, label in spawns if s.pos < start), key=lambda item: item[0].pos)
        return task, f" after the {what} caught at the wait on line {start[0]}"
    return None


def _timed_at(scope: Scope, start: Pos, end: Pos, attempt: Pos) -> bool:
    """Is the wait that spans ``start`` to ``end`` one of asyncio's timed waits,
    or in an ``asyncio.timeout()`` block inside the ``try`` at ``attempt`` (a block
    around the ``try`` raises its timeout at its own end, outside it), not a
    name of the project that may stand for one?"""
    return any(
        site.module is None and not site.waits_only and (
            start <= pos_of(site.node) <= end
            or (site.suspends is not None and attempt < pos_of(site.node) < start <= site.end)
        )
        for site in scope.timeouts
    )


def _loop_index(frames: Frames) -> int:
    """The index of the innermost loop in ``frames`` (-1: none)."""
    for index in range(len(frames) - 1, -1, -1):
        if frames[index][0] == LOOP:
            return index
    return -1


def _leaves(exit: Exit, fate: List[Pos]) -> bool:
    """Does the exit leave the frame (a ``break`` or ``continue``: its loop, and
    nothing after it, nor before it in an outer loop's next pass, handles the
    task) with nothing on the way out that handles the task?"""
    node, frames = exit.node, exit.frames
    raising = isinstance(node, ast.Raise) or type(exit) is YieldExit  # (``GeneratorExit``)
    inner = frames
    loop: Optional[ast.AST] = None
    first, index = (0, 0), 0
    if isinstance(node, _LOOP_EXITS):
        index = _loop_index(frames)
        if index < 0:
            return False
        loop, inner = frames[index][1], frames[index + 1:]
        outermost = next(frame[1] for frame in frames if frame[0] == LOOP)
        first = pos_of(outermost) if outermost is not loop else pos_of(loop)
    for kind, around, detail in inner:
        if kind == SUPPRESS and raising:
            return False
        if kind != TRY:
            continue
        if detail == TRY_BODY and raising and getattr(around, "handlers", None) and (
                type(exit) is not YieldExit or N.catches_close(around)):
            return False  # a handler may catch it and go on
        if any(_inside(p, getattr(around, "finalbody", ())) for p in fate):
            return False
    if loop is not None:
        start, end = pos_of(loop), end_of(loop)
        # after the loop, not in a handler of a ``try`` whose body the loop ends (no path from
        # the exit goes there: nothing after the loop in that body may raise into it)
        kind, around, part = frames[index - 1] if index else (LOOP, loop, 0)
        handlers = getattr(around, "handlers", ()) if kind == TRY and part == TRY_BODY and (
            getattr(around, "body", [None])[-1] is loop) else ()
        return not any((p > end and not any(pos_of(h) <= p <= end_of(h) for h in handlers))
                       or first <= p < start for p in fate)
    return True


def _carrying_loop(frames: Frames, spawns: Spawns) -> Optional[ast.AST]:
    """The outermost loop around the exit that holds every spawn."""
    for kind, node, _ in frames:
        if kind == LOOP and all(pos_of(node) <= s.pos <= end_of(node) for s, _ in spawns):
            return node
    return None


def _lost_at(
    exit: Exit, spawns: Spawns, fate: List[Pos], scope: Scope, names: Set[str], carried: Set[str],
    held: Set[int], returning: Dict[int, Pos], suspends: Suspends,
) -> Optional[Tuple[Spawn, str, str, str]]:
    """The first task made before ``exit`` on its path and still pending there
    (the cheap questions first: this is asked of every handle and exit;
    ``returning``: ``_made_in_returning``)."""
    start = pos_of(exit.node)
    made = [(s, label) for s, label in spawns if s.pos < start and not exclusive(s.frames, exit.frames)
            and not returning.get(id(s), end_of(exit.node)) < start and not _raised_first(s, exit.frames)
            and not woken(s, exit.frames, start, scope)]
    end = end_of(exit.node)
    if not made:
        # made later in a loop around the exit, held across its passes by a local made before
        # it: the exit meets the task of an earlier pass (a continue, an inner break, leaves it)
        if isinstance(exit.node, ast.Continue) or (
            isinstance(exit.node, ast.Break) and sum(f[0] == LOOP for f in exit.frames) != 1
        ):
            return None
        loop = carried and _carrying_loop(exit.frames, spawns)
        if not loop or any(pos_of(loop) <= p <= end_of(loop) for p in fate):
            return None
        if not all(b.pos < pos_of(loop) for name in carried for b in scope.bindings.get(name, ())):
            return None
        spawn, label = min(spawns, key=lambda item: item[0].pos)
        lost = _leaves(exit, fate) and not _looks_at(exit, names, scope)
        return (spawn, label, sorted(carried)[0], "") if lost else None
    first = min(made, key=lambda item: item[0].pos)
    begin = first[0].pos
    if isinstance(exit.node, _LOOP_EXITS):
        index = _loop_index(exit.frames)
        if index < 0:
            return None  # a ``break`` or ``continue`` outside a loop: the compiler refuses it
        loop = exit.frames[index][1]
        last = max(s.pos for s, _ in spawns)  # (a local bound after them in each pass carries nothing over)
        anew = all(scope.bindings.get(name) and all(b.pos > last and _fresh(b.frames, exit.frames, index)
                                                    for b in scope.bindings[name]) for name in carried)
        if anew and all(_fresh(s.frames, exit.frames, index) for s, _ in spawns):
            # made anew in each pass of the loop the exit leaves or continues: the rest of this
            # pass is skipped, the next one rebinds the local (and first runs the top of the body)
            if isinstance(exit.node, ast.Continue):
                begin = pos_of(loop)
        elif isinstance(exit.node, ast.Continue):
            return None  # the next pass may still hold the task, and handle it
        else:
            # handled anywhere in the loop it leaves: a pass may have finished it
            end = max(end, end_of(loop))
    elements = element_uses(exit.frames, names, scope) if type(exit.node) in (ast.Return, ast.Raise) else {}
    pools = pool_passes(exit, scope) if scope.waits and type(exit.node) in LEAVING_LOOPS else ()
    between = [p for p in fate if begin <= p <= end and not _apart(p, exit.frames)
               and not _polled_around(p, exit.frames) and p not in elements and p not in pools
               and not done_only(p, exit, names, scope)]
    note = ""
    caught: Optional[Tuple[Tuple[Spawn, str], str]] = None
    if between:
        iters = completion_loops(exit.frames, scope)
        timed_out = _timed_out(exit, scope)
        abandoned = _abandoned(exit, scope, held) if scope.waits and scope.cancels else None
        for p in between:
            if p in timed_out or any(pos_of(it) <= p <= end_of(it) for it in iters):
                continue
            if abandoned is not None and abandoned[0] <= p <= abandoned[1] and p in abandoned[2]:
                note = f" (the wait on line {abandoned[3]} left it pending after cancel())"
                continue
            caught = _caught(exit, made, fate, scope, suspends, names) if scope.awaits else None
            if caught is None:
                return None
            first, note = caught
            break
    if type(exit) is EndExit and caught is None:  # (a handler the task's path may never reach)
        caught = _caught(exit, made, fate, scope, suspends, names) if scope.awaits else None
        if caught is None:
            return None
        first, note = caught
    looked = names - {use.name for use in elements.values()} if elements else names  # (the element's tests)
    return (*first, "", note) if _leaves(exit, fate) and not _looks_at(exit, looked, scope) else None


def _abandoned(exit: Exit, scope: Scope, held: Set[int]) -> Optional[Tuple[Pos, Pos, Set[Pos], int]]:
    """Is the exit in the ``else`` of a loop that, in each pass, waits with a
    timeout (or ``return_when``) for the pending tasks it holds and leaves by a
    ``break`` only when none is pending::

        for attempt in range(3):
            for task in pending:
                task.cancel()
            _done, pending = await asyncio.wait(pending, timeout=5)
            if not pending:
                break
        else:
            log.error("abandoning %s", pending)
            return

    The ``else`` runs only when the last wait saw tasks still pending: the
    cancels and the wait in the loop's body do not finish them there.  The span
    of the body, those places (the cancels, the wait's rebinding), and the wait's
    line; None when the loop is not so (a ``continue`` in it, the wait or the
    test under an ``if``, a task of another wait)."""
    at = pos_of(exit.node)
    for site in scope.waits:
        pending = site.pending
        if id(pending) not in held or len(pending.bindings) != 1:
            continue
        binding = pending.bindings[0]
        statement, frames = binding.stmt, binding.frames
        index = _loop_index(frames)
        value = getattr(statement, "value", None)
        if index < 0 or index != len(frames) - 1:
            continue  # not a statement of a loop's body
        if not isinstance(value, ast.Await) or value.value is not site.node:
            continue
        loop = frames[index][1]
        body: Sequence[ast.stmt] = getattr(loop, "body", ())
        if not _inside(at, getattr(loop, "orelse", ())) or statement not in body:
            continue
        after = body.index(statement) + 1
        if after >= len(body) or not breaks_when_empty(body[after], binding.name):
            continue
        first, last = _span(body)
        if any(
            isinstance(other.node, ast.Continue) and first <= pos_of(other.node) <= last
            for other in scope.exits
        ):
            continue
        places = {p for p in scope.cancels if first <= p <= last}
        if (U_FINISH, binding.pos) in pending.events:
            places.add(binding.pos)  # the wait waits on the set it rebinds
        return first, last, places, site.node.lineno
    return None


def _raised_first(spawn: Spawn, frames: Frames) -> bool:
    """Is the exit in a handler of the ``try`` whose body ends with the
    statement that makes the task (or runs nothing after it but a ``break`` out
    of a loop, ``lookups.runs_nothing_after``)?  The handler runs only when that
    statement, or one before it, raised: it bound no task (a later pass of a loop
    around the ``try`` may meet the task of an earlier one: not followed, as in
    ``exclusive``)."""
    if spawn.frames and spawn.frames[-1][0] == TRY and spawn.frames[-1][2] == TRY_BODY:
        node = spawn.frames[-1][1]
        last = node.body[-1]  # type: ignore[attr-defined]
        if pos_of(last) <= spawn.pos <= end_of(last) and any(
                kind == TRY and at is node and part == TRY_HANDLERS for kind, at, part in frames):
            return True
    # (or nothing of that body runs after it but a ``break`` out of a loop: posthog's runner)
    handled = {id(at) for kind, at, part in frames if kind == TRY and part == TRY_HANDLERS}
    return any(kind == TRY and part == TRY_BODY and id(at) in handled and isinstance(at, ast.Try)
               and runs_nothing_after(at, spawn.pos) for kind, at, part in spawn.frames)


def _fresh(made: Frames, frames: Frames, index: int) -> bool:
    """Is a spawn with statement context ``made`` a statement of the body of the
    loop ``frames[index]`` (under no ``if`` or ``try`` in it): made anew, and its
    local rebound, in each pass?"""
    return len(made) == index + 1 and made[index][1] is frames[index][1] and made[:index] == frames[:index]


def _looks_at(exit: Exit, names: Set[str], scope: Scope) -> bool:
    """Is the exit under an ``if`` whose test looks at the task (``if
    task.done():``, ``if not task:``), or says on the exit's branch that a wait
    of the task found it done (``_done_on``)?  That path may be the one where it
    is finished, or never made."""
    for kind, at, branch in exit.frames:
        if kind == BRANCH and isinstance(at, ast.If) and not (branch == 0 and _some_pending(at.test, scope)):
            first_at, last_at = pos_of(at.test), end_of(at.test)
            if any(first_at <= use.pos <= last_at for name in names for use in scope.uses.get(name, ())):
                return True
            if scope.waits and _done_on(at.test, branch == 0, names, scope):
                return True
    return False


def _done_on(test: ast.expr, holds: bool, names: Set[str], scope: Scope) -> bool:
    """Does ``test``, on the branch where it is ``holds`` (the body: true), say
    that an ``asyncio.wait()`` of the task found it done: ``if done:`` (or the
    ``else`` of ``if not done:``) of a wait of the task alone; or, with ``fut =
    done.pop()`` of a wait of the task and one other awaitable, the ``else`` of
    ``if fut is other:`` (the body of ``is not``), where ``fut`` is the task
    (berconpy's ``wait_for_login``, a false alarm of the thirty-seventh trial's
    sweep)?  ``if other in done:`` and the body of ``if fut is other:`` say
    nothing of the task."""
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        test, holds = test.operand, not holds
    if isinstance(test, ast.BoolOp):  # (the body of ``a and b``, the ``else`` of ``a or b``: each holds so)
        return isinstance(test.op, ast.And) == holds and any(
            _done_on(value, holds, names, scope) for value in test.values)
    if isinstance(test, ast.Compare) and len(test.ops) == 1 and type(test.ops[0]) in _SIZES:
        size = test.comparators[0]  # ``len(done) > 0``: as ``len(done)``; ``len(done) == 0``: as ``not``
        if isinstance(size, ast.Constant) and type(size.value) is int and size.value in (0, 1):
            empty = _SIZES[type(test.ops[0])][size.value]
            if empty is not None:
                test, holds = test.left, holds != empty
    if isinstance(test, ast.Call) and N.last_name(test.func) == "len" and len(test.args) == 1:
        test = test.args[0]
    if isinstance(test, ast.Name):
        site = done_site(test.id, scope)
        return holds and site is not None and others_waited(site, names) == []
    if not (isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], _IDENTITY)):
        return False
    popped, other = test.left, test.comparators[0]
    if isinstance(other, ast.Name) and _popped(other.id, scope) is not None:
        popped, other = other, popped
    site = _popped(popped.id, scope) if isinstance(popped, ast.Name) else None
    others = others_waited(site, names) if site is not None else None
    text = N.chain_text(other)  # (not ``ast.dump``, which imports on Python 3.15: ``names.chain_text``)
    if others is None or len(others) != 1 or not text or N.chain_text(others[0]) != text:
        return False
    return holds == isinstance(test.ops[0], (ast.IsNot, ast.NotEq))  # (there ``fut`` is not the other)


_IDENTITY = (ast.Is, ast.IsNot, ast.Eq, ast.NotEq)
# ``len(s) OP n`` for n of 0 and 1: does it say ``s`` is empty (True), not empty (False), or neither
_SIZES: Dict[type, Tuple[Optional[bool], Optional[bool]]] = {
    ast.Gt: (False, None), ast.NotEq: (False, None), ast.GtE: (None, False),
    ast.Eq: (True, False), ast.Lt: (None, True), ast.LtE: (True, None),
}


def _popped(name: str, scope: Scope) -> Optional[WaitSite]:
    """The wait whose done set's ``pop()`` the local ``name`` is bound to, once."""
    value = assigned_value(name, scope)
    func = value.func if isinstance(value, ast.Call) and not (value.args or value.keywords) else None
    if isinstance(func, ast.Attribute) and func.attr == "pop" and isinstance(func.value, ast.Name):
        return done_site(func.value.id, scope)
    return None


def _some_pending(test: ast.expr, scope: Scope) -> bool:
    """``if pending:`` (``len(pending)``) of an ``asyncio.wait()``'s pending set: its body has them."""
    if isinstance(test, ast.Call) and N.last_name(test.func) == "len" and len(test.args) == 1:
        test = test.args[0]
    bindings = scope.bindings.get(test.id, ()) if isinstance(test, ast.Name) else ()
    return bool(bindings) and all(b.group is not None and b.group.wait is not None for b in bindings)


# How many (handle, exit) pairs one function may ask about: a function with hundreds of
# both is left silent rather than made slow (the questions grow with their product).
BUDGET = 1_500


def lost_on_exits(rules: Asked, scope: Scope, live: List[Tuple[Group, Spawns]], suspends: Suspends) -> None:
    """TRF007: a task safe on the usual path, still pending at an explicit exit
    (``suspends``: may an awaited call suspend the frame, ``_caught``), at the end
    reached from a handler of a cancellation (``_ends``), or at the end after a
    swallowed timeout (``_lost_at_end``)."""
    if not scope.generator:
        _lost_at_end(rules, scope, live)
    ends = _ends(scope)
    for candidates in ([*scope.exits, *ends, *scope.yields], [*scope.exits, *ends]):  # (yields: in budget)
        exits = sorted(candidates, key=lambda e: pos_of(e.node))
        starts = [pos_of(exit.node) for exit in exits]  # in source order
        # an exit before every spawn meets a task only from an earlier pass of a loop
        firsts = [bisect.bisect_right(starts, min(s.pos for s, _ in spawns)) for _, spawns in live]
        if sum(len(exits) - first for first in firsts) <= BUDGET:
            break
    else:
        return
    if not exits:
        return
    reported: Set[int] = rules._reported
    returns = [(pos_of(exit.node), end_of(exit.node)) for exit in exits if isinstance(exit.node, ast.Return)]
    returning = _returning_branches(scope) if returns else []
    drains = {id(exit): pos_of(loop) for exit in exits for loop in (_drain_exit(scope, exit),) if loop}
    for (group, spawns), after in zip(live, firsts):
        if id(group) in reported:
            continue
        if returns and all(any(first <= s.pos <= last for first, last in returns) for s, _ in spawns):
            continue  # made in a ``return [create_task(c) for c in coros]``: its path ends there
        # (``t.result()`` on the way to the exit: done there, or it raises, an exit no rule counts)
        fate: List[Pos] = rules._fate(group, scope, _FINISHED)
        made_in = _made_in_returning(spawns, returning) if returning else {}
        if (0, 0) in fate:
            continue  # an opaque value bound where nothing can be told
        reachable, _ = rules._reachable(group, scope)
        held = {id(g) for g in reachable}
        names = {g.name for g in reachable if g.name}
        # the locals other than its own that hold it (a set it is added to)
        carried = {g.name for g in reachable[1:] if g.name and g.name not in {b.name for b in group.bindings}}
        for exit in exits if carried else exits[after:]:
            if id(exit) in drains and _before(spawns, drains[id(exit)]):
                continue  # no other task is pending there (made before the drain loop)
            found = _lost_at(exit, spawns, fate, scope, names, carried, held, made_in, suspends)
            if found is None:
                continue
            reported.add(id(group))
            spawn, label, holder, note = found
            kind = f"the {type(exit.node).__name__.lower()} on line {exit.node.lineno}{note}"
            if type(exit) is YieldExit:
                kind = f"the yield on line {exit.node.lineno}{note}, where a consumer that stops closes it"
            elif type(exit) is EndExit:
                kind = f"the end of the function, reached from line {exit.node.lineno}{note}"
            if isinstance(exit.node, ast.Break):
                kind += " (nothing after its loop awaits, cancels or keeps it), and the frame ends"
            elif isinstance(exit.node, ast.Continue):
                kind += ", where the next pass rebinds it"
                kind += " (nothing after its loop awaits, cancels or keeps it)"
            else:
                kind += ", and the frame ends"
            rules._spawn_error(
                "TRF007", spawn, label, name=holder or rules._display(group, reachable, scope),
                exit=kind,
            )
            break


def _ends(scope: Scope) -> List[Exit]:
    """The end of a function reached from a handler of its body's last statement, a ``try``
    with no ``finally``, of a cancellation or a timeout, that ends with a simple statement
    (``except asyncio.CancelledError: pass``): an exit as a ``return`` there would be
    (``EndExit``; only with a wait in the ``try`` where the exception lands, ``_lost_at``)."""
    body = getattr(scope.node, "body", None)
    last = body[-1] if isinstance(body, list) and body else None
    if not isinstance(last, N.TRIES) or last.finalbody:
        return []
    ends: List[Exit] = []
    for handler in last.handlers:
        caught = N.exception_names(handler.type)
        end = handler.body[-1]
        if caught and caught & _ENDS_WAIT and isinstance(end, _SIMPLE):
            ends.append(EndExit(ast.copy_location(ast.Return(value=None), end), ((TRY, last, TRY_HANDLERS),)))
    return ends


def _lost_at_end(rules: Asked, scope: Scope, live: List[Tuple[Group, Spawns]]) -> None:
    """TRF007 for a ``run_coroutine_threadsafe`` future held only by a local,
    whose ``fut.result(timeout)`` is a statement of a ``try`` body (in no loop)
    whose first handler of the timeout goes on past the ``try`` (``except
    Exception: pass``; or of a ``with contextlib.suppress(Exception):``, edgevox's, a
    miss of the forty-first trial), with nothing else handling the future anywhere in the
    function: on that path the frame ends, by its end or by an exit, with the
    future pending (telnetlib3's blocking ``_cleanup()``, a miss of the sixteenth
    trial).  A handler that leaves is ``_timed_out``'s."""
    for group, spawns in live:
        if id(group) in rules._reported or not group.name or any(s.callee != N.THREADSAFE for s, _ in spawns):
            continue
        reachable, _ = rules._reachable(group, scope)
        if len(reachable) != 1:
            continue  # another local holds it too
        fate = rules._fate(group, scope, _FINISHED)
        for use in scope.uses.get(group.name, ()):
            line = _swallowed(use, fate, scope) if use.kind == U_RESULT else None
            if line is not None and all(s.pos < use.pos for s, _ in spawns):
                rules._reported.add(id(group))
                spawn, label = spawns[0]
                rules._spawn_error(
                    "TRF007", spawn, label, name=group.name,
                    exit=f"the handler on line {line}, which swallows the timeout of its result() "
                         "(nothing after it cancels or keeps it), and the frame ends",
                )
                break


def _swallowed(use: Use, fate: List[Pos], scope: Scope) -> Optional[int]:
    """The line of the handler that swallows the timeout of ``fut.result(timeout)``
    at ``use``, a statement of a ``try`` body in no loop, when nothing but that
    statement and the rest of the body handles the future; None otherwise."""
    frames = use.frames
    kind, attempt, part = frames[-1] if frames else (LOOP, None, 0)
    if not (kind == TRY and part == TRY_BODY or kind == SUPPRESS) or any(f[0] == LOOP for f in frames):
        return None
    body: Sequence[ast.stmt] = getattr(attempt, "body", ())
    statement = next((s for s in body if pos_of(s) <= use.pos <= end_of(s)), None)
    future = _timed_future(statement) if isinstance(statement, (ast.Assign, ast.Expr)) else None
    if future is None or pos_of(future) != use.pos:
        return None
    handlers: Sequence[ast.ExceptHandler] = getattr(attempt, "handlers", ()) if kind == TRY else [
        ast.ExceptHandler(ast.Tuple(attempt.items[part].context_expr.args),  # type: ignore[union-attr]
                          None, [ast.Pass()], lineno=attempt.lineno)]  # type: ignore[union-attr]
    timeouts = N.TIMEOUT_EXCEPTIONS
    handler = next((h for h in handlers if N.catches(h, timeouts) or _catches_timeout(h, scope)), None)
    if handler is None or isinstance(handler.body[-1], _EXITS):
        return None
    last = end_of(body[-1])
    if any(not use.pos <= p <= last for p in fate):
        return None  # handled before the wait, in a handler, a ``finally`` or after the ``try``
    return handler.lineno


def held_by_forever(rules: Asked, group: Group, spawns: Spawns, scope: Scope, awaits: bool = False) -> bool:
    """Made before a ``while True:`` loop that nothing leaves (the frame, and so the
    local, lives as long as the function runs), or made in it and added to a local
    collection made before it (which lives as long).  With ``awaits`` (TRF002), also
    bound, once, to a local of a function that is no generator before an ``await``
    that never returns (``await server.serve_forever()``, ``exits.py``)."""
    for loop in scope.forever:
        start, end = pos_of(loop), end_of(loop)
        if not isinstance(loop, ast.While):
            once = bool(group.name) and len(scope.bindings.get(group.name, ())) == 1
            if awaits and once and not scope.generator and all(spawn.pos < start for spawn, _ in spawns):
                return True
            continue
        if id(loop) in scope.loop_exits:
            # left only where no other task is pending: it holds what was made before it
            if _before(spawns, start) and _drained(scope, loop, start, end):
                return True
            continue
        if all(spawn.pos < start for spawn, _ in spawns):
            return True
        if not all(start <= spawn.pos <= end for spawn, _ in spawns):
            continue
        reachable, _ = rules._reachable(group, scope)
        for held in reachable:
            if held is group or not held.name or not held.bindings:
                continue
            if all(b.pos < start for b in scope.bindings.get(held.name, ())):
                return True
    return False


def runs_while(scope: Scope, name: str) -> bool:
    """Is ``name`` the test of a ``while name:`` loop that no ``break``,
    ``return`` or ``raise`` in it leaves?"""
    for use in scope.uses.get(name, ()):
        loop = innermost_loop(use.frames)
        if isinstance(loop, ast.While) and isinstance(loop.test, ast.Name) and pos_of(loop.test) == use.pos:
            return left_by_test_only(scope, loop)
    return False


def _before(spawns: Spawns, start: Pos) -> bool:
    """Made before a drain loop, as tasks of the running loop (not a thread-safe
    future of another loop, which ``all_tasks()`` does not list)."""
    return all(spawn.pos < start and spawn.callee != N.THREADSAFE for spawn, _ in spawns)


def _drained(scope: Scope, loop: ast.While, start: Pos, end: Pos) -> bool:
    """``_drain_loop``, asked once per loop."""
    known = scope.drained.get(id(loop))
    if known is None:
        known = scope.drained[id(loop)] = _drain_loop(scope, loop, start, end)
    return known


def _drain_loop(scope: Scope, loop: ast.While, start: Pos, end: Pos) -> bool:
    """Is every way out of ``loop`` (a ``return`` in it, a ``break`` of it)
    taken only when no other task of the event loop is pending: in the branch
    of ``if not pending:`` where ``pending``, bound only before that ``if`` in
    the loop's own body, is a snapshot of ``asyncio.all_tasks()`` (``{t for t
    in asyncio.all_tasks() if t is not current}``, ``asyncio.all_tasks() -
    {current}``)?  Then every task the function made before the loop is done
    when it leaves (a drain loop: ``vkbottle``'s runner); not one it makes in
    the loop, which may come after the snapshot."""
    for exit in scope.exits:
        node = exit.node
        if not start <= pos_of(node) <= end or isinstance(node, (ast.Raise, ast.Continue)):
            continue
        if isinstance(node, ast.Break) and next(
            (frame[1] for frame in reversed(exit.frames) if frame[0] == LOOP), None
        ) is not loop:
            continue  # the break of a loop in it
        if _drain_exit(scope, exit) is not loop:
            return False
    return True


def _drain_exit(scope: Scope, exit: Exit) -> Optional[ast.While]:
    """The ``while`` loop in whose ``if not pending:`` the exit is
    (``_none_pending``): taken only when no other task is pending; None if none."""
    loop: Optional[ast.AST] = None
    for kind, at, detail in exit.frames:
        if kind == LOOP:
            loop = at
        elif kind == BRANCH and isinstance(at, ast.If) and isinstance(loop, ast.While) and _none_pending(
            scope, loop, at, detail
        ):
            return loop
    return None


def _none_pending(scope: Scope, loop: ast.While, test_of: ast.If, branch: int) -> bool:
    """``if not pending:`` (branch 0; ``if pending: ... else:``, branch 1), with
    ``pending`` a snapshot of ``all_tasks()`` taken before it in each pass."""
    test = test_of.test
    negated = isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not)
    name = test.operand if isinstance(test, ast.UnaryOp) and negated else test
    if not isinstance(name, ast.Name) or branch != (0 if negated else 1):
        return False
    bindings = scope.bindings.get(name.id, ())
    # looked at only by tests, waited on or finished (not emptied: ``pending.clear()``)
    plain = scope.drained.get(name.id)
    if plain is None:
        plain = scope.drained[name.id] = all(
            use.kind in (U_GUARD, U_FINISH)
            or (use.kind == U_FLOW and isinstance(use.target, Group) and use.target.wait is not None)
            for use in scope.uses.get(name.id, ())
        )
    return plain and bool(bindings) and all(
        binding.kills and binding.pos < pos_of(test_of) and isinstance(binding.stmt, ast.Assign)
        and next((f[1] for f in reversed(binding.frames) if f[0] != SUPPRESS), None) is loop
        and _all_tasks(scope, binding.stmt.value)
        for binding in bindings
    )


def _all_tasks(scope: Scope, value: ast.expr) -> bool:
    """``asyncio.all_tasks()``, less one task (``- {current}``), or a
    comprehension over it that leaves out one task (``{t for t in
    asyncio.all_tasks() if t is not current}``), where the task left out is
    the running one (no task the function made)."""
    if isinstance(value, (ast.SetComp, ast.ListComp)) and len(value.generators) == 1:
        generator = value.generators[0]
        target = generator.target
        if not (isinstance(target, ast.Name) and isinstance(value.elt, ast.Name) and value.elt.id == target.id
                and len(generator.ifs) <= 1 and not generator.is_async
                and all(_leaves_out_one(scope, test, target.id) for test in generator.ifs)):
            return False
        value = generator.iter
    elif isinstance(value, ast.BinOp) and isinstance(value.op, ast.Sub):
        right = value.right
        if not (isinstance(right, ast.Set) and len(right.elts) == 1
                and is_current_task(right.elts[0], scope)):
            return False
        value = value.left
    return (isinstance(value, ast.Call) and not value.args and not value.keywords  # (the running loop's)
            and scope.imports.resolve(value.func) in N.ALL_TASKS)


def _leaves_out_one(scope: Scope, test: ast.expr, name: str) -> bool:
    """``t is not current`` (or ``!=``, either way round), ``current`` the
    running task (``is_current_task``)."""
    if not (isinstance(test, ast.Compare) and len(test.ops) == 1
            and isinstance(test.ops[0], (ast.IsNot, ast.NotEq))):
        return False
    sides = [test.left, test.comparators[0]]
    if not (isinstance(sides[0], ast.Name) and sides[0].id == name):
        sides.reverse()
    return isinstance(sides[0], ast.Name) and sides[0].id == name and is_current_task(sides[1], scope)
