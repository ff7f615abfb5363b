"""TRF007: a task made before the ``try`` whose cleanup finishes it, with a wait
in between.

``task = asyncio.create_task(...)``, then ``await setup()``, then ``try: ...
finally: task.cancel()``: the function says, by its ``finally`` (or its handler
of every exception, or of cancellation), that the task must be finished when
the frame leaves by an exception, but an exception (or a cancellation) of a wait
between the spawn and the ``try`` leaves before it, with the task running and
held by nobody.  Only that shape is followed: the ``try`` is a later statement
of the block that makes the task, and the wait is a statement between them (in
that block, or in an ``if``/``with``/loop of it, under no ``try`` of its own); the
exception is then followed out of the function as TRF003's timeout is
(``rules.ModuleRules._lost_on_unwind``, any handler taken to catch it).  The
exception path of other waits stays out (``docs/rules/TRF007.md``).  The one
pass records the ``try`` statements and the waits (``exits.py``); nothing here
walks a tree.
"""
from __future__ import annotations

import ast
from typing import Any, Callable, List, Optional, Tuple

from flake8_taskref.analysis import names as N
from flake8_taskref.analysis.exits import broad_handler
from flake8_taskref.analysis.facts import SUPPRESS, TRY, TRY_BODY, Frames, Group, Pos, Scope, Spawn
from flake8_taskref.analysis.lookups import exclusive, waits_for_event
from flake8_taskref.analysis.gathers import Asked, caught_anywhere
from flake8_taskref.analysis.paths import Suspends, held_by_forever
from flake8_taskref.analysis.scopes import end_of, pos_of

Spawns = List[Tuple[Spawn, str]]
# Is this ``async with`` entry's call known never to suspend (``coroutines.quiet_entry``)?
Quiet = Callable[[ast.Call], bool]


def lost_before_cleanup(
    rules: Asked, scope: Scope, live: List[Tuple[Group, Spawns]], until: Any, quiet: Quiet,
) -> None:
    """TRF007 at the spawn, naming the wait and the ``try``."""
    def exit(group: Group, spawn: Spawn) -> Optional[str]:
        found = _gap(rules, scope, group, spawn, until, quiet)
        if found is None:
            return None
        wait, attempt, part = found
        return (f"an exception of the wait on line {wait} (before the 'try' on line {attempt}, whose "
                f"'{part}' finishes it: start the task inside that 'try'), and the frame ends")
    _report(rules, scope, live, exit)


def _report(
    rules: Asked, scope: Scope, live: List[Tuple[Group, Spawns]],
    exit: Callable[[Group, Spawn], Optional[str]],
) -> None:
    """TRF007 at the one spawn of each live handle not yet reported, where ``exit`` names
    the way out that loses it."""
    if not scope.cleanups or not scope.awaits:
        return
    for group, spawns in live:
        if id(group) in rules._reported or len(spawns) != 1:
            continue
        spawn, label = spawns[0]
        found = exit(group, spawn)
        if found is None:
            continue
        rules._reported.add(id(group))
        reachable, _ = rules._reachable(group, scope)
        rules._spawn_error("TRF007", spawn, label, name=rules._display(group, reachable, scope), exit=found)


def _gap(
    rules: Asked, scope: Scope, group: Group, spawn: Spawn, until: Any, quiet: Quiet,
) -> Optional[Tuple[int, int, str]]:
    made = spawn.pos
    for attempt, frames in scope.cleanups:
        start = pos_of(attempt)
        if start <= made or frames != spawn.frames:
            continue  # not a later statement of the block that makes the task
        fate = rules._fate(group, scope)
        if (0, 0) in fate:
            return None  # an opaque value bound where nothing can be told
        part = _finishing_part(attempt, fate)
        if part is None:
            continue
        after = end_of(spawn.node)
        if any(after <= p < start for p in fate):
            return None  # handled, kept or handed on before the try
        wait = _first_wait(scope, frames, after, start, quiet)
        if wait is None:
            return None
        if not any(g.name for g in rules._reachable(group, scope)[0]):
            return None
        if held_by_forever(rules, group, [(spawn, "")], scope):
            return None
        at, wait_frames = wait
        names = caught_anywhere(wait_frames)
        if not rules._lost_on_unwind(wait_frames, fate, names, at, until(group, group.name, scope)):
            return None
        return at[0], attempt.lineno, part
    return None


def _finishing_part(attempt: ast.Try, fate: List[Pos]) -> Optional[str]:
    """``finally`` or ``except`` when that part of the ``try`` handles the task."""
    if attempt.finalbody and any(_inside(p, attempt.finalbody) for p in fate):
        return "finally"
    if any(_inside(p, h.body) for h in attempt.handlers if broad_handler(h) for p in fate):
        return "except"
    return None


def _inside(pos: Pos, body: List[ast.stmt]) -> bool:
    return pos_of(body[0]) <= pos <= end_of(body[-1])


def _first_wait(
    scope: Scope, frames: Frames, after: Pos, before: Pos, quiet: Quiet,
) -> Optional[Tuple[Pos, Frames]]:
    """The first statement that suspends between the spawn and the ``try``, in
    their block or a block of it under no ``try`` or ``suppress`` of its own:
    not an ``async with`` known never to suspend, entering or leaving (``quiet``:
    no cancellation comes from it, and what it raises is a callee's)."""
    depth = len(frames)
    for at, wait_frames, _, _, call, entry in scope.awaits:
        if not after <= at < before or wait_frames[:depth] != frames:
            continue
        if entry and call is not None and quiet(call):
            continue
        if any(kind in (TRY, SUPPRESS) for kind, _, _ in wait_frames[depth:]):
            continue
        return at, wait_frames
    return None


def lost_past_handler(
    rules: Asked, scope: Scope, live: List[Tuple[Group, Spawns]], until: Any, suspends: Suspends,
) -> None:
    """TRF007 at the spawn: the task is finished by a handler of ``Exception`` of a
    ``try`` (``except Exception: task.cancel(); raise``), made before the ``try`` in
    its block (or one around it) or in its body, and a wait of the body after it may be cancelled: a
    ``CancelledError`` is no ``Exception``, passes that handler, and the frame ends
    with the task running (ophyd-async's ``set_and_wait_for_other_value``, a miss
    of the twentieth trial).  Silent when another handler of the ``try`` may catch
    the cancellation, when its ``finally`` or a ``try`` around it handles the task,
    and where the first wait after the task cannot be told to suspend."""
    def exit(group: Group, spawn: Spawn) -> Optional[str]:
        found = _past_handler(rules, scope, group, spawn, until, suspends)
        if found is None:
            return None
        return (f"a cancellation of the wait on line {found[0]}, which the handler of Exception on line "
                f"{found[1]} that finishes it does not catch (CancelledError is no Exception: finish it in "
                f"'finally'), and the frame ends")
    _report(rules, scope, live, exit)


def _past_handler(
    rules: Asked, scope: Scope, group: Group, spawn: Spawn, until: Any, suspends: Suspends,
) -> Optional[Tuple[int, int]]:
    if waits_for_event(spawn.runs):
        return None  # (whoever cancels such a function most often sets the event first)
    fate = rules._fate(group, scope)
    if (0, 0) in fate:
        return None  # an opaque value bound where nothing can be told
    for attempt, frames in scope.cleanups:
        depth = len(frames)
        body = frames + ((TRY, attempt, TRY_BODY),)
        if spawn.frames[:depth + 1] != body and not (
            frames[:len(spawn.frames)] == spawn.frames and pos_of(attempt) > spawn.pos
        ):
            continue  # neither made in its body nor before it in its block or one around it
        handler = next((h for h in attempt.handlers if any(_inside(p, h.body) for p in fate)), None)
        if (  # (the ``try``s whose waits the text shortcut enters: ``N.misses_cancellation``)
            handler is None or not broad_handler(handler) or not N.misses_cancellation(attempt)
            or (attempt.finalbody and any(_inside(p, attempt.finalbody) for p in fate))
        ):
            continue
        after = end_of(spawn.node)
        for at, wait_frames, end, lets_go, call, entry in scope.awaits:
            if at < after or wait_frames[:depth + 1] != body or entry:
                continue
            if call is not None and not suspends(call):
                continue
            if any(after <= p < at or (at <= p <= end and not lets_go) for p in fate):
                return None  # handled before the wait, or by it
            if exclusive(spawn.frames, wait_frames):
                return None  # (the wait is in another branch)
            if not any(g.name for g in rules._reachable(group, scope)[0]):
                return None
            if held_by_forever(rules, group, [(spawn, "")], scope):
                return None
            if not rules._lost_on_unwind(wait_frames, fate, N.CANCELS, at, until(group, group.name, scope)):
                return None
            return at[0], handler.lineno
        return None
    return None
