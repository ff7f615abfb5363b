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
from typing import Any, List, Optional, Tuple

from flake8_taskref.analysis.exits import broad_handler
from flake8_taskref.analysis.facts import SUPPRESS, TRY, Frames, Group, Pos, Scope, Spawn
from flake8_taskref.analysis.gathers import Asked, caught_anywhere
from flake8_taskref.analysis.paths import held_by_forever
from flake8_taskref.analysis.scopes import end_of, pos_of

Spawns = List[Tuple[Spawn, str]]


def lost_before_cleanup(rules: Asked, scope: Scope, live: List[Tuple[Group, Spawns]], until: Any) -> None:
    """TRF007 at the spawn, naming the wait and the ``try``."""
    if not scope.cleanups or not scope.awaits:
        return
    for group, spawns in live:
        if id(group) in rules._reported or len(spawns) != 1:
            continue
        spawn, label = spawns[0]
        found = _gap(rules, scope, group, spawn, until)
        if found is None:
            continue
        wait, attempt, part = found
        rules._reported.add(id(group))
        reachable, _ = rules._reachable(group, scope)
        rules._spawn_error(
            "TRF007", spawn, label, name=rules._display(group, reachable, scope),
            exit=(
                f"an exception of the wait on line {wait} (before the 'try' on line {attempt}, whose "
                f"'{part}' finishes it: start the task inside that 'try'), and the frame ends"
            ),
        )


def _gap(
    rules: Asked, scope: Scope, group: Group, spawn: Spawn, until: Any,
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
        wait = _first_wait(scope, frames, after, start)
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


def _first_wait(scope: Scope, frames: Frames, after: Pos, before: Pos) -> Optional[Tuple[Pos, Frames]]:
    """The first statement that suspends between the spawn and the ``try``, in
    their block or a block of it under no ``try`` or ``suppress`` of its own."""
    depth = len(frames)
    for at, wait_frames, _, _, _, _ in scope.awaits:
        if not after <= at < before or wait_frames[:depth] != frames:
            continue
        if any(kind in (TRY, SUPPRESS) for kind, _, _ in wait_frames[depth:]):
            continue
        return at, wait_frames
    return None
