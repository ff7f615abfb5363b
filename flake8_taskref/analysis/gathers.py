"""TRF008: the tasks an awaited ``asyncio.gather()`` leaves running when it fails.

Without ``return_exceptions``, ``await asyncio.gather(a, b, ...)`` raises the
first exception of what it gathers at once, and the others run on (asyncio's
documentation: they "won't be cancelled and will continue to run").  A task the
function made that is held only by its locals is then pending when the exception
unwinds the frame, unless a ``finally`` or a handler on the way out finishes or
keeps it.  The one pass records each such gather (``Scope.gathers``, in
``asyncio_api.py``); here, after the pass, each handle that the rules found safe
on the usual path (finished by that very gather) is followed out from it, as a
timeout is for TRF003 (``rules.ModuleRules._lost_on_unwind``), with any handler
taken to catch the failure.  Nothing here walks a tree.
"""
from __future__ import annotations

import ast
from typing import Any, FrozenSet, List, Optional, Protocol, Set, Tuple

from flake8_taskref.analysis import names as N
from flake8_taskref.analysis.facts import SUPPRESS, TRY, Frames, GatherSite, Group, Pos, Scope, Spawn
from flake8_taskref.analysis.paths import Asked as PathsAsked
from flake8_taskref.analysis.paths import held_by_forever
from flake8_taskref.analysis.scopes import pos_of

Spawns = List[Tuple[Spawn, str]]


class Asked(PathsAsked, Protocol):
    """What this module asks of the rules (``rules.ModuleRules``) beyond what
    ``paths`` does: how an exception unwinds, and a finding at a node."""

    def _lost_on_unwind(
        self, frames: Frames, fate: List[Pos], names: FrozenSet[str], site: Pos, until: Any
    ) -> bool: ...

    def _error(self, code: str, node: ast.AST, related: Any = None, **fields: Any) -> None: ...

    def spawned_coroutine(self, spawn: Spawn, scope: Scope) -> Optional[Scope]: ...

    def _never_suspends(self, spawn: Spawn, scope: Scope) -> bool: ...


def caught_anywhere(frames: Frames) -> FrozenSet[str]:
    """Every exception name a handler or ``suppress`` around the site names: a
    gathered task may fail with any exception, so each of them is taken to
    catch it (the handler may be the one that finishes the others: silent)."""
    caught: Set[str] = {"BaseException"}
    for kind, node, field in frames:
        types: List[Any] = []
        if kind == TRY:
            types = [h.type for h in getattr(node, "handlers", ())]
        elif kind == SUPPRESS:
            types = list(node.items[field].context_expr.args)  # type: ignore[attr-defined]
        for node_type in types:
            caught |= N.exception_names(node_type) or set()
    return frozenset(caught)


def first_lost(lost: List[Tuple[Group, Spawn]]) -> Tuple[Group, Spawn, str]:
    """One finding per site (TRF003, TRF008, TRF010): the handle made first among
    those lost there, and how many more (``, and 2 others``)."""
    group, first = min(lost, key=lambda item: item[1].pos)
    more = len(lost) - 1
    return group, first, f", and {more} other{'s' if more > 1 else ''}" if more else ""


def lost_on_failure(
    rules: Asked, scope: Scope, live: List[Tuple[Group, Spawns]], until: Any
) -> None:
    """TRF008, one finding per gather: the first handle it leaves, and how many
    more.  ``until`` makes the ``Until`` of a handle (``rules.Until``)."""
    for site in scope.gathers:
        if not site.many:
            continue  # one awaitable: when it fails, it is done
        if not _may_fail(rules, scope, site, live):
            continue
        lost = _lost_at(rules, scope, site, live, until)
        if not lost:
            continue
        group, first, others = first_lost(lost)
        reachable, _ = rules._reachable(group, scope)
        holder = _holder(reachable, site)
        rules._error("TRF008", site.node, holder=holder, line=first.node.lineno, others=others)


def _may_fail(
    rules: Asked, scope: Scope, site: GatherSite, live: List[Tuple[Group, Spawns]]
) -> bool:
    """Can one of the gathered fail?  Not when it gathers only local names of
    tasks of this file's coroutine functions that each catch every
    ``Exception`` without re-raising (a pool of workers that log and go on)."""
    for arg in site.node.args:
        value = arg.value if isinstance(arg, ast.Starred) else arg
        if not isinstance(value, ast.Name):
            return True
    gathered = [
        spawns for group, spawns in live if any(g is site.group for g in rules._reachable(group, scope)[0])
    ]
    if not gathered:
        return True
    for spawns in gathered:
        for spawn, _ in spawns:
            coroutine = rules.spawned_coroutine(spawn, scope)
            if coroutine is None or not coroutine.catches_all:
                return True
    return False


def _holder(reachable: List[Group], site: GatherSite) -> str:
    """The local that holds the first handle left: the one gathered if it is
    (``gather(*tasks)``, not the ``task`` appended to it), else the first."""
    given = [arg.value if isinstance(arg, ast.Starred) else arg for arg in site.node.args]
    names = {arg.id for arg in given if isinstance(arg, ast.Name)}
    gathered = next((g.name for g in reachable if g.name in names), "")
    return gathered or next(g.name for g in reachable if g.name)


def _lost_at(
    rules: Asked, scope: Scope, site: GatherSite, live: List[Tuple[Group, Spawns]], until: Any
) -> List[Tuple[Group, Spawn]]:
    start = pos_of(site.node)
    names = caught_anywhere(site.frames)
    lost: List[Tuple[Group, Spawn]] = []
    for group, spawns in live:
        if id(group) in rules._reported or held_by_forever(rules, group, spawns, scope):
            continue
        first = min(spawns, key=lambda item: item[0].pos)[0]
        if first.pos > site.end:
            continue
        reachable, _ = rules._reachable(group, scope)
        if not any(g is site.group for g in reachable):
            continue  # not gathered here
        if not any(g.name for g in reachable):
            continue  # made in the gather's arguments: the gather's own, as a coroutine's task is
        fate = rules._fate(group, scope)
        if (0, 0) in fate or any(first.pos <= p < start for p in fate):
            continue  # opaque, or finished or kept before the gather
        if not rules._lost_on_unwind(site.frames, fate, names, site.end, until(group, group.name, scope)):
            continue
        rules._reported.add(id(group))
        lost.append((group, first))
    return lost
