"""TRF005's question of a frame that lives: does a local hold the tasks an
``asyncio.wait()`` leaves pending, for as long as they run?  Asked after the one
pass, of what it recorded (``rules.ModuleRules._function``); nothing here walks
a tree.

* A relay: the wait takes its tasks from a local ``S`` made before a ``while
  S:`` (or ``while True:``) loop around it, and every way out of the loop leaves
  ``S`` empty (its test; ``if not S: break``) or leaves it to a drain loop
  after it (``while S:`` at the top of the function body, left by its test
  only): the pending set dropped in a pass drops nothing (``_relayed``).
* A local of the task itself made before a ``while`` loop that every way out of
  leaves only once the task is done (``held_through_wait``).
"""
from __future__ import annotations

import ast
from typing import List, Optional, Tuple

from flake8_taskref.analysis.facts import BRANCH, LOOP, Frames, Group, Pos, Scope, WaitSite
from flake8_taskref.analysis.finished import done_test
from flake8_taskref.analysis.lookups import (
    assigned_value, breaks_when_empty, innermost_loop, left_by_test_only,
)
from flake8_taskref.analysis.paths import Asked
from flake8_taskref.analysis.scopes import end_of, pos_of


def held_through_wait(rules: Asked, group: Group, wait: WaitSite, scope: Scope) -> bool:
    """A local made before the loop around ``asyncio.wait()`` that every way out
    of the loop leaves only once it is done: it holds the task while the loop
    runs, and the pending set dropped in a pass drops nothing."""
    if _relayed(rules, group, wait, scope):
        return True
    name = group.name
    if not name or not group.bindings:
        return False
    node = wait.node
    frames = next(
        (use.frames for _, use in rules.flows_of(group) if pos_of(node) <= use.pos <= end_of(node)), None
    )
    loops = [frame[1] for frame in frames or () if frame[0] == LOOP]
    if not loops or not isinstance(loops[-1], ast.While):
        return False
    loop = loops[-1]
    start, end = pos_of(loop), end_of(loop)
    if any(b.pos >= start for b in scope.bindings.get(name, ())):
        return False
    for exit in scope.exits:
        if isinstance(exit.node, ast.Continue) or not start <= pos_of(exit.node) <= end:
            continue
        if not any(
            kind == BRANCH and isinstance(at, ast.If) and done_test(at.test, name, detail)
            for kind, at, detail in exit.frames
        ):
            return False
    test = loop.test
    return (isinstance(test, ast.Constant) and bool(test.value)) or done_test(test, name, 1)


def _relayed(rules: Asked, group: Group, wait: WaitSite, scope: Scope) -> bool:
    """Does the wait take its tasks from a local ``S`` that holds the task,
    bound once, before a ``while S:`` loop around the wait (or a ``while
    True:``) that nothing leaves with tasks in ``S`` unless a drain loop after
    it waits them out (``_left_held``)?  The tasks the wait leaves pending stay
    in ``S``, and the frame goes on until ``S`` is empty: the pending set
    dropped in a pass drops nothing (a relay::

        waiting = {reader, writer}
        while waiting:
            done, _ = await asyncio.wait(waiting, return_when=FIRST_COMPLETED)
            for task in done:
                waiting.discard(task)
                ...

    telnetlib3's relay server, a false alarm of the sixteenth trial; wapiti's
    attack modules, four of the thirty-sixth)."""
    given = _given(wait)
    if given is None or len(scope.bindings.get(given, ())) != 1:
        return False
    if not any(g.name == given for g in rules._reachable(group, scope)[0]):
        return False
    frames = _frames_at(scope, wait, given)
    loop = innermost_loop(frames)
    if not isinstance(loop, ast.While) or not (_empties(loop.test, given) or _true(loop.test)):
        return False
    return scope.bindings[given][0].pos < pos_of(loop) and _left_held(scope, loop, frames, given)


def _given(wait: WaitSite) -> Optional[str]:
    """The local a wait takes its tasks from (``asyncio.wait(S, ...)``), if a name."""
    node = wait.node
    given = node.args[0] if node.args else next((k.value for k in node.keywords if k.arg == "fs"), None)
    return given.id if isinstance(given, ast.Name) else None


def _frames_at(scope: Scope, wait: WaitSite, name: str) -> Frames:
    """The statement context of the wait, from the use of ``name`` it is given."""
    node = wait.node
    return next((use.frames for use in scope.uses.get(name, ())
                 if pos_of(node) <= use.pos <= end_of(node)), ())


def _left_held(scope: Scope, loop: ast.While, frames: Frames, name: str) -> bool:
    """Does every way out of ``loop`` leave ``name`` holding no pending task?
    None but a ``break`` of the loop: under ``if not name: break`` (empty), or
    any ``break`` when a drain loop after the loops around it waits ``name``
    empty (``_drained_after``); a ``return`` or ``raise`` in it, or in a loop
    around it (which may leave with tasks in ``name``), never."""
    outermost = next((node for kind, node, _ in frames if kind == LOOP), loop)
    leaves = [pos_of(e.node) for e in scope.exits if isinstance(e.node, (ast.Return, ast.Raise))]
    if any(pos_of(outermost) <= at <= end_of(outermost) for at in leaves):
        return False
    start, end = pos_of(loop), end_of(loop)
    breaks = [exit.frames[-1] for exit in scope.exits if isinstance(exit.node, ast.Break)
              and start <= pos_of(exit.node) <= end and innermost_loop(exit.frames) is loop]
    full = any(not (kind == BRANCH and part == 0 and breaks_when_empty(at, name))  # (empty when it breaks)
               for kind, at, part in breaks)
    return not full or _drained_after(scope, outermost, name, leaves)


def _drained_after(scope: Scope, outermost: ast.AST, name: str, leaves: List[Pos]) -> bool:
    """Is there, after the loop ``outermost``, a wait on ``name`` in a ``while
    name:`` loop, a statement of the function body, left by its test only, with
    no ``return`` or ``raise`` (``leaves``) from the start of ``outermost`` to it
    (``while tasks: done, pending = await asyncio.wait(tasks, ...)``, wapiti's "we
    may still have some running tasks")?"""
    begin, after = pos_of(outermost), end_of(outermost)
    body = getattr(scope.node, "body", ())  # (a statement of the body: reached from the loops before it)
    for site in scope.waits:
        if _given(site) != name or pos_of(site.node) <= after:
            continue
        loop = innermost_loop(_frames_at(scope, site, name))
        if not isinstance(loop, ast.While) or not any(statement is loop for statement in body):
            continue
        start = pos_of(loop)
        if _empties(loop.test, name) and not any(begin <= at < start for at in leaves) and left_by_test_only(
                scope, loop):
            return True
    return False


def _empties(test: ast.expr, name: str) -> bool:
    """Is ``test`` false only when ``name`` is empty (``name``, ``len(name)``)?"""
    if isinstance(test, ast.Call) and len(test.args) == 1:
        if not (isinstance(test.func, ast.Name) and test.func.id == "len"):
            return False
        test = test.args[0]
    return isinstance(test, ast.Name) and test.id == name


def _true(test: ast.expr) -> bool:
    """``while True:``"""
    return isinstance(test, ast.Constant) and bool(test.value)


def abandoned_after_cancel(rules: Asked, scope: Scope) -> List[Tuple[WaitSite, str]]:
    """TRF005 of a wait with a timeout whose tasks were all cancelled before it
    and whose pending set is then left (tested, logged, cancelled again, or not
    looked at): the tasks it returns pending are those still running after their
    cancellation and the timeout, and nothing holds them once the frame ends
    (magg's server runner, which logs "abandoning it" and returns: a miss of the
    thirty-ninth trial)::

        for task in pending:
            task.cancel()
        _, stuck = await asyncio.wait(pending, timeout=5)
        if stuck:
            log.warning("abandoning %s", stuck)

    Only so: each handle that reaches the wait's pending set is handled only by
    ``cancel()`` calls before the wait (nothing keeps, awaits or hands it on, before
    or after), the pending set is bound once and handled by nothing but ``cancel()``,
    and the wait is in no loop (whose next pass may wait on it again).  Asked last
    of a function: a handle another rule reported is not asked of.  The wait, and
    the locals it waits on with the line of the first cancel."""
    found: List[Tuple[WaitSite, str]] = []
    for site in scope.waits:
        node, pending = site.node, site.pending
        start, end = pos_of(node), end_of(node)
        if not _timed(node, scope) or len(pending.bindings) > 1:
            continue
        if not all(p in scope.cancels for p in rules._fate(pending, scope)):
            continue  # (cancelled again, it is still running: only that)
        flows = [(g, u) for g in scope.groups for t, u in rules.flows_of(g)
                 if t is pending and start <= u.pos <= end]
        if not flows or any(frame[0] == LOOP for _, use in flows for frame in use.frames):
            continue
        holders = [g for g in scope.groups if g.spawns and any(
            r is pending for r in rules._reachable(g, scope)[0])]
        if not holders or any(id(g) in rules._reported for g in holders):
            continue
        cancels: List[Pos] = []
        for group in holders + [g for g, _ in flows]:  # (a cancel after the wait finishes nothing either)
            fate = rules._fate(group, scope)
            if not any(p < start for p in fate) or not all(p in scope.cancels for p in fate):
                break
            cancels.extend(p for p in fate if p < start)
        else:
            rules._reported.update(id(g) for g in holders)
            names = sorted({f"local '{g.name}'" for g, _ in flows if g.name}) or ["the wait's argument"]
            found.append((site, f"{', '.join(names)}, cancelled on line {min(cancels)[0]} and still "
                                f"running after the timeout"))
    return found


def _timed(node: ast.Call, scope: Scope) -> bool:
    """``asyncio.wait(fs, timeout=t)`` with a timeout that is not ``None`` (nor a
    local bound once to ``None``)."""
    for keyword in node.keywords:
        if keyword.arg == "timeout":
            value = keyword.value
            if isinstance(value, ast.Name):
                value = assigned_value(value.id, scope) or value
            return not (isinstance(value, ast.Constant) and value.value is None)
    return False
