"""Sync functions that run the event loop themselves (``loop.run_until_complete``,
``run_forever``, ``asyncio.run``): their frame holds its locals while the loop runs,
so a task they make and hold only in a local is not lost while it does.

* ``off_loop``: which of their spawns are judged anyway: futures of
  ``run_coroutine_threadsafe`` made on a branch apart from every run of the loop,
  or after every one, in no loop around both (the loop runs in another thread
  there: streamlit-webrtc's ``stop()``, which runs the loop on one branch and waits
  on a timed-out ``result()`` on the other, a miss of the twenty-eighth trial);
* ``held_by_snapshot``: a task held by a snapshot of the loop's tasks that the
  function drains.
"""

from __future__ import annotations

import ast
from typing import Optional

from flake8_taskref.analysis import names as N
from flake8_taskref.analysis.facts import LOOP, Frames, Pos, Scope, Spawn
from flake8_taskref.analysis.lookups import exclusive
from flake8_taskref.analysis.paths import Spawns, runs_while


def off_loop(spawns: Spawns, scope: Scope) -> bool:
    """Are ``spawns`` all futures of ``run_coroutine_threadsafe``, each made where
    this frame runs no loop while it may hold them (``_apart`` from every run)?"""
    return all(
        spawn.callee == N.THREADSAFE and all(_apart(spawn, at, frames) for at, frames in scope.loop_runs)
        for spawn, _ in spawns
    )


def _apart(spawn: Spawn, at: Pos, frames: Frames) -> bool:
    """Is the run of the loop at ``at`` (in ``frames``) on another branch than the
    spawn (``lookups.exclusive``: ``if loop.is_running(): ... else:
    loop.run_until_complete(...)``), or before it (``if not loop.is_running():
    loop.run_until_complete(...); return``, or a ``try`` whose handler spawns), with
    no loop around both (a later pass may run it while the local holds the future)?"""
    loops = {id(frame[1]) for frame in frames if frame[0] == LOOP}
    if any(frame[0] == LOOP and id(frame[1]) in loops for frame in spawn.frames):
        return False
    return at < spawn.pos or exclusive(spawn.frames, frames)


def held_by_snapshot(spawn: Spawn, scope: Scope) -> bool:
    """A task of ``R.create_task(...)``, dropped in a function that is no coroutine
    and runs the loop itself, then held by ``tasks = asyncio.all_tasks(R)`` (the
    same ``R``, spelled the same) before the loop runs: until then the loop's
    queue holds it, and the snapshot from then on, when ``tasks`` is the test of a
    ``while tasks:`` loop that nothing else leaves and every binding of ``tasks``
    is such a snapshot (the loop ends only when no task of ``R`` is pending; a
    sync runner: telegrinder's ``run_event_loop()``, a false alarm of the
    seventeenth trial)."""
    receiver = spawn.receiver
    if not scope.loop_runs or receiver is None or isinstance(scope.node, ast.AsyncFunctionDef):
        return False
    text = N.chain_text(receiver)
    if not text:
        return False  # (a call, ``new_event_loop().create_task``, may give another loop)
    for name, bindings in scope.bindings.items():
        first = bindings[0].pos if bindings else None
        if first is None or first <= spawn.pos or any(spawn.pos < p < first for p, _ in scope.loop_runs):
            continue
        if all(_snapshot_of(scope, b.stmt, name, text) for b in bindings) and runs_while(scope, name):
            return True
    return False


def _snapshot_of(scope: Scope, statement: Optional[ast.stmt], name: str, text: str) -> bool:
    """Is ``statement`` ``name = asyncio.all_tasks(R)``, ``R`` spelled ``text``?"""
    value = statement.value if isinstance(statement, ast.Assign) and len(statement.targets) == 1 else None
    target = statement.targets[0] if isinstance(statement, ast.Assign) else None
    return (
        isinstance(target, ast.Name) and target.id == name and isinstance(value, ast.Call)
        and len(value.args) == 1 and not value.keywords and scope.imports.resolve(value.func) in N.ALL_TASKS
        and N.dotted_text(value.args[0]) == text
    )
