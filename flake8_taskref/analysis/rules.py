"""The rules: read the facts of one module and decide which handles are lost.

Order matters only for "one lost handle, one finding": TRF001 (dropped at once), then per
function scope TRF002/TRF005 (never handled on the normal path), TRF004 (lost when a shield's
waiter is cancelled), TRF003 (a timeout unwinds the frame), TRF007, TRF008, TRF010 (other
ways out), and TRF006 (kept, but in a collection nothing prunes)."""
from __future__ import annotations

import ast
import bisect
from typing import Any, Dict, FrozenSet, List, Optional, Sequence, Set, Tuple

from flake8_taskref.analysis import names as N
from flake8_taskref.analysis.facts import (
    LOOP, SUPPRESS, TRY, TRY_BODY, TRY_FINALLY, TRY_HANDLERS, U_ADD, U_FINISH, U_FLOW, U_CALL, U_GUARD,
    U_HARMLESS, U_KEEP, U_RESULT, Binding, CallArg, CollectionAdd, Frames, FutureSpawn, Group,
    ModuleFacts, Pos, Scope, Spawn, TimeoutSite, Use,
)
from flake8_taskref.analysis.lookups import awaited_by_body, exclusive, loop_span, polled_tasks, returns_loop
from flake8_taskref.analysis.messages import (
    HOW_CLEARED, HOW_THREADSAFE, HOW_WEAK, SHIELD_OF_LOCAL, SOME_PATHS, TIMEOUT_FIXES, TRF002_WHY,
    UNFIXABLE_AWAITED, UNFIXABLE_SOME_PATHS, UNFIXABLE_TASKS, WHAT_TASKS, WHERE, SpanError, make_error,
    what_of, TRF005_FIXES,
)
from flake8_taskref.analysis.modules import RETURNS_TASK, RETURNS_TASKS, Function, Resolver
from flake8_taskref.analysis.arguments import only_looks
from flake8_taskref.analysis.finished import done_where
from flake8_taskref.analysis.factories import keeps_every_task
from flake8_taskref.analysis.options import Options
from flake8_taskref.analysis.summaries import Summaries
from flake8_taskref.analysis.task_sets import never_pruned
from flake8_taskref.analysis.paths import held_by_forever, lost_on_exits
from flake8_taskref.analysis.relays import abandoned_after_cancel, held_through_wait
from flake8_taskref.analysis.runners import held_by_snapshot, off_loop
from flake8_taskref.analysis.gathers import first_lost, lost_on_failure
from flake8_taskref.analysis.cancelled_waits import lost_on_cancel
from flake8_taskref.analysis.gaps import lost_before_cleanup, lost_past_handler
from flake8_taskref.analysis.cancels import dropped_after_cancel
from flake8_taskref.analysis.coroutines import (
    bound_call, cleared_by_itself, coroutine_function, held_by_thread, keeps_itself, never_suspends,
    plain_call, quiet_entry, self_keepers, spawned_coroutine, suspends_at, uncalled,
)

_FATE = (U_FINISH, U_KEEP)
_KEPT = object()  # a flow whose target keeps the handle (not a local collection)


def _pos(node: ast.AST) -> Pos:
    return (getattr(node, "lineno", 0), getattr(node, "col_offset", 0))


def _end(node: ast.AST) -> Pos:
    return (getattr(node, "end_lineno", 0) or 0, getattr(node, "end_col_offset", 0) or 0)


def _within(pos: Pos, start: Pos, end: Pos) -> bool:
    return start <= pos <= end


def _exposed(site: TimeoutSite, start: Pos, fate: Pos) -> bool:
    """In a timeout block, is a handle made at ``start`` and handled at ``fate``
    exposed to the timeout in between: the frame may be suspended there (the
    timeout hits, the code after it in the block never runs), and ``fate`` is in
    no handler or ``finally`` of a ``try`` inside the block?"""
    if site.waits_only and fate >= _pos(site.node):
        return True  # the handle waited on with a timeout: not finished when it hits
    suspends = site.suspends
    return (
        suspends is not None
        and any(start <= at < fate for at in suspends)
        and not any(_within(fate, first, last) for first, last in site.guarded)
    )


def _waits_on_a_handle(site: TimeoutSite, live: List[Tuple[Group, List[Tuple[Spawn, str]]]]) -> bool:
    """``fut.result(timeout)``: is ``fut`` a local that holds a handle (not ``logger.exception(msg)``)?"""
    waited = site.label.split(".", 1)[0]
    return any(group.name == waited for group, _ in live)


class Until:
    """The handle whose loss is asked about at a site: its group and name, and
    whether the site shields it (then ``while True:`` re-awaits it)."""

    __slots__ = ("group", "name", "scope", "shield")

    def __init__(self, group: Group, name: str, scope: Scope, shield: bool = False) -> None:
        self.group = group
        self.name = name
        self.scope = scope
        self.shield = shield

    def exits(self, loop: ast.AST) -> List[Pos]:
        return self.scope.loop_exits.get(id(loop), [])


class ModuleRules:
    """Decides the findings of one module from its facts."""

    def __init__(self, facts: ModuleFacts, options: Options, resolver: Optional[Resolver] = None) -> None:
        self.facts = facts
        self.options = options
        # the other modules, through their summaries (the facts' own resolver by default); what
        # the rules add to the recorded groups (the uses they connect, the helpers' results they
        # find opaque) is their own, so that two rule runs can read one pass's facts (a summary
        # made without the other modules, then findings with them)
        self.resolver = resolver if resolver is not None else facts.resolver
        self._events: Dict[int, List[Tuple[int, Pos]]] = {}
        self._flows: Dict[int, List[Tuple[Any, Use]]] = {}
        self._opaque: Set[int] = set()
        self.errors: List[SpanError] = []
        self._safe: Dict[int, bool] = {}
        self._reported: Set[int] = set()
        self._labels: Dict[int, Optional[str]] = {}
        self.threaded: Set[int] = set()  # spawns of ``asyncio.to_thread`` tasks (no label; TRF006's)
        self._captured: Dict[int, Set[str]] = {}
        self._kills: Dict[Tuple[int, str], Dict[int, Pos]] = {}
        self._loop_cache: Dict[int, FrozenSet[int]] = {}
        self._reach: Dict[int, Tuple[List[Group], List[Pos]]] = {}
        self._loop_attr_set: Optional[Set[str]] = None
        self._aliases_by_class: Optional[Dict[int, List[Tuple[str, str, Scope]]]] = None
        # Groups added to a weak collection (its text): they are not kept by it.
        self._weak_adds: Dict[int, str] = {}
        self._keepers = self_keepers(facts)  # coroutine functions that keep their own task
        self.summaries = Summaries(facts, self, self.resolver, options.words)

    # ---------------------------------------------------------------- driver
    def prepare(self) -> None:
        """Connect every use to the groups it sees and decide the results of
        helpers: what the summaries and the findings both read."""
        self._free_names(self.facts.module)
        for scope in self.facts.scopes:
            if scope.kind == Scope.FUNCTION:
                self._connect(scope)
        self._resolve_helpers()

    def run(self) -> List[SpanError]:
        self.prepare()
        for scope in self.facts.scopes:
            for spawn in scope.drops:
                label = self.label(spawn, scope)
                if label is not None and not held_by_snapshot(spawn, scope):
                    self._spawn_error("TRF001", spawn, label, how=spawn.how)
            for spawn, where in scope.call_drops:
                label = self.label(spawn, scope)
                if label is not None and only_looks(self.summaries.argument(where), label):
                    self._spawn_error("TRF001", spawn, label, how=spawn.how)
            for spawn, add in scope.weak_drops:
                label = self.label(spawn, scope)
                if label is not None and self.facts.weak(add):
                    how = HOW_WEAK.format(collection=add.text)
                    self._spawn_error("TRF001", spawn, label, how=how)
        for scope in self.facts.scopes:
            if scope.kind == Scope.FUNCTION:
                self._function(scope)
        if keeps_every_task(self.facts, self.loop_receiver):  # every task of its loop is kept until done
            self.errors = []
        if self.options.collections:
            never_pruned(self)  # (a set that grows for ever grows, kept or not)
        self.errors.sort(key=lambda e: (e.lineno, e.col_offset, e.code))
        return self.errors

    def _error(self, code: str, node: ast.AST, related: Optional[Function] = None, **fields: Any) -> None:
        error = make_error(code, *_pos(node), end=_end(node), **fields)
        if related is not None:
            error.related = (related.module.path, related.info.line, related.module.file)
        self.errors.append(error)

    # ------------------------------------------------- what the rules add
    def _event(self, group: Group, kind: int, pos: Pos) -> None:
        self._events.setdefault(id(group), []).append((kind, pos))

    def events_of(self, group: Group) -> List[Tuple[int, Pos]]:
        """The group's events: those recorded, and those the uses connected add."""
        extra = self._events.get(id(group))
        return group.events + extra if extra else group.events

    def flows_of(self, group: Group) -> List[Tuple[Any, Use]]:
        extra = self._flows.get(id(group))
        return group.flows + extra if extra else group.flows

    def opaque(self, group: Group) -> bool:
        """Does the group hold a value not followed (recorded so, or the result
        of a call found to return no new task)?"""
        return group.opaque or id(group) in self._opaque

    def _spawn_error(self, code: str, spawn: Spawn, label: str, **fields: Any) -> None:
        """TRF001/TRF002 for a spawn: what it returns (a task, a future, a list of
        tasks), and where a spawner of another module is defined."""
        # TRF007's ``{finish}``: a ``concurrent.futures.Future`` cannot be awaited where it is waited for
        fields.setdefault("finish", "cancel" if label == N.THREADSAFE else "await or cancel")
        if code == "TRF001" and label == N.THREADSAFE and not fields.get("how"):  # (what is lost)
            fields["how"] = HOW_THREADSAFE
        helper = spawn.helper
        remote = self.summaries.named_callee(helper) if helper is not None else None
        maybe = helper is not None and self.summaries.maybe_spawner(helper, self.summaries.held_alone(spawn))
        what, where = what_of(label), ""
        if remote is not None:
            info = remote.info
            what = WHAT_TASKS if self.resolver is not None and self.resolver.returns_list(remote) else (
                "future" if info.future else "task")
            where = WHERE.format(path=remote.module.path, line=info.line)
        elif helper is not None:  # a function of this file: what its returns are, as another module's
            found = self.summaries.callee(helper, coroutine=helper.awaited)
            kind, future = self.summaries.returned(found[0]) if found is not None else (RETURNS_TASK, False)
            what = WHAT_TASKS if kind == RETURNS_TASKS else "future" if future else what
        self._error(code, spawn.node, related=remote, call=label, what=what + (SOME_PATHS if maybe else ""),
                    where=where, **fields)
        if helper is not None and (maybe or helper.awaited):  # what --fix must leave, and why
            self.errors[-1].unfixable = UNFIXABLE_SOME_PATHS if maybe else UNFIXABLE_AWAITED
        elif what == WHAT_TASKS:  # (a set of tasks cannot hold a list: each is kept, by hand)
            self.errors[-1].unfixable = UNFIXABLE_TASKS

    # ------------------------------------------------------------- spawners
    def label(self, spawn: Spawn, scope: Scope) -> Optional[str]:
        """The name of the call for messages, or None if it does not spawn."""
        key = id(spawn)
        if key in self._labels:
            return self._labels[key]
        result: Optional[str] = None
        receiver = spawn.receiver
        if type(spawn) is FutureSpawn:
            pass  # ``ensure_future(param)``: no spawn where it is (its callers may pass a future)
        elif spawn.helper is not None:
            self._labels[key] = None  # while deciding (a helper that returns its own call)
            if self.summaries.spawner(spawn.helper, spawn) and not self._never_suspends(spawn, scope):
                result = spawn.callee
        elif self._never_suspends(spawn, scope):
            result = None  # its coroutine runs to its end in the task's first step
        elif self._ensures_plain_call(spawn, scope):
            result = None  # a plain function's result: a future most often, returned unchanged
        elif keeps_itself(spawn, scope, self._keepers):
            result = None  # its coroutine stores its own task where it outlives the frame
        elif receiver is None:
            result = spawn.callee
        elif self.loop_receiver(receiver, scope):
            result = N.dotted_text(receiver) + "." + spawn.callee
        self._labels[key] = result
        return result

    def loop_receiver(self, receiver: ast.expr, scope: Scope) -> bool:
        """Is ``receiver`` an event loop: a loop name or attribute, or a call that gives one?"""
        if isinstance(receiver, ast.Name):
            return receiver.id in self.options.loop_names or self._is_loop_var(receiver.id, scope)
        if isinstance(receiver, ast.Attribute):
            return (
                receiver.attr in self.options.loop_names
                or receiver.attr in self._loop_attrs()
                or self._inherited_loop(receiver, scope)
            )
        if isinstance(receiver, ast.Call):  # ``asyncio.get_running_loop()``, ``fut.get_loop()``
            return scope.imports.resolve(receiver.func) in N.LOOP_FACTORIES or N.gets_loop(receiver) or (
                returns_loop(receiver, scope))
        return False

    def _resolve_helpers(self) -> None:
        """A group that receives the result of a call of a function of this file
        holds an opaque value unless that function returns a new task (as any
        other call's result).  Decided once the uses are connected; the flows
        cached while deciding are computed again."""
        undecided: List[Tuple[Group, Scope]] = []
        for scope in self.facts.scopes:
            for group in scope.groups:
                for spawn in group.spawns:
                    if spawn.helper is not None:
                        if self.summaries.callee(spawn.helper) is None and (
                            self.summaries.remote(spawn.helper) is None
                        ) and not self.summaries.may_spawn(spawn.helper):
                            self._opaque.add(id(group))
                        else:
                            undecided.append((group, scope))
        if not undecided:
            return
        for group, scope in undecided:
            if any(s.helper is not None and self.label(s, scope) is None for s in group.spawns):
                self._opaque.add(id(group))
        self._reach.clear()
        self._safe.clear()

    # What summaries ask of the rules (``summaries.Judge``).
    def applicable(self, scope: Scope, name: str, use: Use) -> List[Binding]:
        return self._applicable(scope, name, use)

    def kept_at(self, group: Group, scope: Scope) -> List[Pos]:
        return self._fate(group, scope, (U_KEEP,))

    def handled_at(self, group: Group, scope: Scope) -> List[Pos]:
        """Where the group's handles are kept, awaited, cancelled or waited on."""
        return self._fate(group, scope, (U_KEEP, U_FINISH, U_RESULT))

    def captured(self, scope: Scope) -> Set[str]:
        return self._captured.get(id(scope), set())

    def _loop_attrs(self) -> Set[str]:
        if self._loop_attr_set is None:
            self._loop_attr_set = set(self.facts.loop_attrs)
            for attr, name, scope in self.facts.loop_attr_aliases:
                if name in self.options.loop_names or self._is_loop_var(name, scope):
                    self._loop_attr_set.add(attr)
        return self._loop_attr_set

    def silenced(self, spawn: Spawn, scope: Scope) -> bool:
        """Can the spawn's coroutine take a finding away: it never suspends or
        keeps its own task (``label``), or it catches every exception (a
        worker TRF008 takes not to fail)?  What the plugin's path asks after
        entering the coroutines it put off (``api._analyse``)."""
        if self._never_suspends(spawn, scope) or (
                spawn.helper is None and keeps_itself(spawn, scope, self._keepers)):
            return True
        coroutine = self.spawned_coroutine(spawn, scope)
        return coroutine is not None and coroutine.catches_all

    def spawned_coroutine(self, spawn: Spawn, scope: Scope) -> Optional[Scope]:
        """The coroutine function of this file whose call the spawn's task runs
        (``coroutines.spawned_coroutine``; a helper's, if it runs its first argument)."""
        helper = spawn.helper
        runs_first = helper is not None and self.summaries.runs_first_argument(helper)
        return spawned_coroutine(spawn, scope, runs_first)

    def _never_suspends(self, spawn: Spawn, scope: Scope) -> bool:
        """Is the spawn's coroutine a call of a coroutine function whose body
        never suspends (``coroutines.never_suspends``)?  Asked of asyncio's
        spawners of one coroutine, and of a helper that runs its first argument
        as the task it returns (``Summaries.runs_first_argument``)."""
        coroutine: Optional[ast.expr] = spawn.runs if spawn.runs_one_coroutine else None
        node = spawn.node  # (``create_task(stop)``: no task, ``coroutines.uncalled``)
        if spawn.runs_one_coroutine and coroutine is None and isinstance(node, ast.Call) and node.args:
            return uncalled(node.args[0], scope)
        if spawn.helper is not None:
            if not self.summaries.runs_first_argument(spawn.helper):  # (it has a first argument)
                return False
            coroutine = spawn.helper.node.args[0]
        if isinstance(coroutine, ast.Call) and held_by_thread(coroutine.func, scope):
            self.threaded.add(id(spawn))  # (not pending unkept either: its thread holds it)
            return True
        return never_suspends(coroutine, scope, self.facts, self.summaries, self.resolver)

    def _ensures_plain_call(self, spawn: Spawn, scope: Scope) -> bool:
        """``asyncio.ensure_future(f())`` of a plain function's call (``coroutines.plain_call``)."""
        node = spawn.node
        return (spawn.callee == "asyncio.ensure_future" and isinstance(node, ast.Call) and bool(node.args)
                and plain_call(node.args[0], scope, self.facts, self.summaries, self.resolver))

    def _inherited_loop(self, receiver: ast.Attribute, scope: Scope) -> bool:
        """``self.<attr>`` that a base class of another module makes an event loop."""
        if not (isinstance(receiver.value, ast.Name) and receiver.value.id in ("self", "cls")):
            return False
        klass = self.summaries.own_class(scope.cls)
        resolver = self.resolver
        return klass is not None and resolver is not None and resolver.loop_attr(klass, receiver.attr)

    def loop_attrs_of(self, klass: Scope) -> Set[str]:
        """Attributes the methods of a class make event loops through a name that
        holds one (``self.io = loop``), for the class's summary."""
        if self._aliases_by_class is None:  # once per module, not once per class
            self._aliases_by_class = {}
            for attr, name, scope in self.facts.loop_attr_aliases:
                self._aliases_by_class.setdefault(id(scope.cls), []).append((attr, name, scope))
        return {
            attr for attr, name, scope in self._aliases_by_class.get(id(klass), ())
            if name in self.options.loop_names or self._is_loop_var(name, scope)
        }

    def _is_loop_var(self, name: str, scope: Scope) -> bool:
        """Is ``name`` (as seen from ``scope``) bound to an event loop?"""
        return scope.holds_loop(name, self.options.loop_names)

    def _spawns(self, group: Group, scope: Scope) -> List[Tuple[Spawn, str]]:
        found = []
        for spawn in group.spawns:
            label = self.label(spawn, scope)
            if label is not None:
                found.append((spawn, label))
        return found

    # ------------------------------------------------------ names and groups
    def _free_names(self, scope: Scope) -> Set[str]:
        """Names a scope (or a scope inside it) reads but does not bind."""
        inner: Set[str] = set()
        for child in scope.children:
            inner |= self._free_names(child)
        local = set(scope.bindings) - scope.declared
        if scope.kind == Scope.FUNCTION:
            self._captured[id(scope)] = inner & local
        return ((scope.loads | inner) - local) | (scope.declared & (scope.loads | inner))

    def _applicable(self, scope: Scope, name: str, use: Use) -> List[Binding]:
        """The bindings of ``name`` whose value the use can see."""
        bindings = scope.bindings.get(name, ())
        next_kill = self._next_kills(scope, name, bindings)
        found = []
        use_loops: Optional[FrozenSet[int]] = None
        span = loop_span(use.frames, name, use.pos) if len(bindings) > 1 else None  # ``for name in``
        for binding in bindings:
            if span is not None and not span[0] <= binding.pos <= span[1]:
                continue
            if binding.pos > use.pos:
                if use_loops is None:
                    use_loops = self._loops(use.frames)
                if not use_loops or not (use_loops & self._loops(binding.frames)):
                    continue
            else:
                # A later plain assignment in the same block overwrote the
                # binding before the use.
                kill = next_kill.get(id(binding))
                if kill is not None and kill <= use.pos <= binding.block_end:
                    continue
            found.append(binding)
        return found

    def _next_kills(
        self, scope: Scope, name: str, bindings: Sequence[Binding]
    ) -> Dict[int, Pos]:
        """For each binding, where the next unconditional assignment of the same
        name in the same block takes effect."""
        key = (id(scope), name)
        found = self._kills.get(key)
        if found is None:
            found = {}
            killers: Dict[int, List[Pos]] = {}
            for binding in bindings:
                if binding.kills:
                    killers.setdefault(binding.block, []).append(binding.pos)
            for positions in killers.values():
                positions.sort()
            for binding in bindings:
                positions = killers.get(binding.block, [])
                if positions:
                    index = bisect.bisect_right(positions, binding.pos)
                    if index < len(positions):
                        found[id(binding)] = positions[index]
            self._kills[key] = found
        return found

    def _loops(self, frames: Frames) -> FrozenSet[int]:
        key = id(frames)
        found = self._loop_cache.get(key)
        if found is None:
            found = frozenset(id(frame[1]) for frame in frames if frame[0] == LOOP)
            self._loop_cache[key] = found
        return found

    def _connect(self, scope: Scope) -> None:
        """Attach every use of a tracked name to the groups it can see."""
        captured = self._captured.get(id(scope), set())
        for name, bindings in scope.bindings.items():
            # Opaque groups without spawns (``x = f()``) keep whatever flows into them: not followed.
            if not any(
                b.group is not None and (b.group.spawns or not b.group.opaque) for b in bindings
            ):
                continue
            if name in captured or name in scope.declared:
                for binding in bindings:
                    if binding.group is not None:
                        self._event(binding.group, U_KEEP, binding.pos)
            for use in scope.uses.get(name, ()):
                for binding in self._applicable(scope, name, use):
                    group = binding.group
                    if group is None:
                        continue
                    if use.kind == U_FLOW:
                        assert isinstance(use.target, (Group, str))
                        self._flows.setdefault(id(group), []).append((use.target, use))
                    elif use.kind == U_CALL:
                        assert isinstance(use.target, CallArg)
                        self._event(group, self.summaries.argument(use.target), use.pos)
                    elif use.kind == U_ADD:
                        assert isinstance(use.target, CollectionAdd)
                        kind = self.facts.added(use.target)
                        if kind == U_HARMLESS:
                            self._weak_adds.setdefault(id(group), use.target.text)
                        self._event(group, kind, use.pos)
                    else:
                        self._event(group, use.kind, use.pos)

    def _targets(self, scope: Scope, target: object, use: Use) -> List[object]:
        """Groups a flow goes into; ``_KEPT`` when it leaves the frame."""
        if isinstance(target, Group):
            return [target]
        assert isinstance(target, str)
        if target in scope.declared:
            return [_KEPT]
        bindings = self._applicable(scope, target, use)
        if not bindings:
            return [_KEPT]
        result: List[object] = []
        for binding in bindings:
            if binding.group is None or self.opaque(binding.group):
                return [_KEPT]
            result.append(binding.group)
        return result

    def _reachable(self, group: Group, scope: Scope) -> Tuple[List[Group], List[Pos]]:
        """Groups ``group`` flows into (itself first), and positions where a flow
        leaves the frame."""
        cached = self._reach.get(id(group))
        if cached is None:
            cached = self._reachable_uncached(group, scope)
            self._reach[id(group)] = cached
        return cached

    def _reachable_uncached(self, group: Group, scope: Scope) -> Tuple[List[Group], List[Pos]]:
        seen = {id(group)}
        order = [group]
        kept_at: List[Pos] = []
        index = 0
        while index < len(order):
            current = order[index]
            index += 1
            for target, use in self.flows_of(current):
                for found in self._targets(scope, target, use):
                    if found is _KEPT:
                        kept_at.append(use.pos)
                    elif isinstance(found, Group) and id(found) not in seen:
                        seen.add(id(found))
                        order.append(found)
        return order, kept_at

    def _with_results(self, group: Group, scope: Scope, kinds: Tuple[int, ...]) -> Tuple[int, ...]:
        """``kinds``, and ``U_RESULT`` as a finish when the group's spawns all make
        the concurrent future of ``run_coroutine_threadsafe``."""
        if U_FINISH in kinds and group.spawns and all(
            label == N.THREADSAFE for label in (self.label(s, scope) for s in group.spawns) if label
        ):
            return kinds + (U_RESULT,)
        return kinds

    def safe(self, group: Group, scope: Scope) -> bool:
        """Is the group awaited, cancelled or kept somewhere (normal path)?"""
        key = id(group)
        if key not in self._safe:
            reachable, kept_at = self._reachable(group, scope)
            kinds = self._with_results(group, scope, _FATE)
            self._safe[key] = bool(kept_at) or any(
                self.opaque(g) or any(kind in kinds for kind, _ in self.events_of(g)) for g in reachable
            )
        return self._safe[key]

    def _fate(self, group: Group, scope: Scope, kinds: Tuple[int, ...] = _FATE) -> List[Pos]:
        """Positions where the group's handles are awaited, cancelled or kept."""
        kinds = self._with_results(group, scope, kinds)
        reachable, kept_at = self._reachable(group, scope)
        positions = list(kept_at)
        for g in reachable:
            if self.opaque(g):
                positions.extend(b.pos for b in g.bindings)
                if not g.bindings and g is group:
                    positions.append((0, 0))
            positions.extend(pos for kind, pos in self.events_of(g) if kind in kinds)
            # (where it flows into an unbound value not followed: ``gather(task, other.task)``)
            positions.extend(u.pos for t, u in self.flows_of(g) if isinstance(t, Group) and self.opaque(t)
                             and not t.bindings)
        return positions

    def _display(self, group: Group, reachable: List[Group], scope: Scope) -> str:
        """The local that holds the handle, or where an unnamed task comes from."""
        for g in reachable:
            if g.name:
                return g.name
        spawns = self._spawns(group, scope)
        if spawns:
            spawn, label = spawns[0]
            return f"{label}() at line {spawn.node.lineno}"
        return "task"

    # -------------------------------------------------------------- function
    def _function(self, scope: Scope) -> None:
        # the frame holds its locals while it runs the loop: judged there only what ``off_loop`` says
        loop_frame = scope.runs_loop and not isinstance(scope.node, ast.AsyncFunctionDef)
        waits: Dict[int, List[str]] = {}
        live: List[Tuple[Group, List[Tuple[Spawn, str]]]] = []
        relayed: List[Tuple[Group, List[Tuple[Spawn, str]]]] = []  # (``relays.held_through_wait``)
        for group in scope.groups:
            spawns = self._spawns(group, scope)
            if not spawns or loop_frame and not off_loop(spawns, scope):
                continue
            if not (self.safe(group, scope) or held_by_forever(self, group, spawns, scope, awaits=True)):
                reachable, _ = self._reachable(group, scope)
                wait = next((g.wait for g in reachable if g.wait is not None), None)
                if wait is not None and held_through_wait(self, group, wait, scope):
                    relayed.append((group, spawns))  # (a cancellation at a wait: TRF010)
                    continue
                name = self._display(group, reachable, scope)
                self._reported.add(id(group))
                if wait is not None:
                    if group.wait is not None:
                        # made inline in the wait's call: name the calls, not the result
                        passed = [f"{label}() at line {spawn.node.lineno}" for spawn, label in spawns]
                    elif any(g.name for g in reachable):
                        passed = [f"local '{name}'"]
                    else:
                        passed = [name]
                    waits.setdefault(id(wait), []).extend(passed)
                    continue
                name, why = self._why_lost(group, reachable, name, scope)
                for spawn, label in spawns:
                    self._spawn_error("TRF002", spawn, label, name=name, why=why)
                continue
            if self._rebound_in_loop(group, scope):
                self._reported.add(id(group))
                for spawn, label in spawns:
                    self._spawn_error("TRF002", spawn, label, name=group.name, why=TRF002_WHY["rebound"])
                continue
            # (a helper's task on some paths in a local: on the others the local is None, which
            # the rules of one path do not tell; TRF002 above judges every path at once)
            spawns = [(spawn, label) for spawn, label in spawns if not self.summaries.some_paths_held(spawn)]
            if spawns:
                live.append((group, spawns))
        for site in scope.waits:
            names = waits.get(id(site))
            if names:
                self._error("TRF005", site.node, names=", ".join(sorted(set(names))), fix=TRF005_FIXES[0])
        facts, summaries, resolver = self.facts, self.summaries, self.resolver
        for attr, spawn in () if loop_frame else scope.self_stores:
            line = cleared_by_itself(spawn, attr, scope, self._keepers)
            called = self.label(spawn, scope) if line is not None else None
            if called is not None:
                self._spawn_error("TRF001", spawn, called, how=HOW_CLEARED.format(attr=attr, line=line))
        dropped_after_cancel(self, scope, live, self._keepers, not loop_frame)
        if not loop_frame:
            self._shields(scope)
        self._timeouts(scope, live)
        suspends = lambda call: suspends_at(call, scope, facts, summaries, resolver)  # noqa: E731
        lost_on_exits(self, scope, live, suspends)
        lost_before_cleanup(self, scope, live, Until, lambda call: quiet_entry(call, scope, facts, resolver))
        lost_past_handler(self, scope, live, Until, suspends)
        if self.options.gathers:
            lost_on_failure(self, scope, live, Until)
        if self.options.waits:  # (TRF010: ``cancelled_waits.py``)
            lost_on_cancel(self, scope, live + relayed, Until)
        for site, text in abandoned_after_cancel(self, scope) if scope.cancels and not loop_frame else ():
            self._error("TRF005", site.node, names=text, fix=TRF005_FIXES[1])

    def _why_lost(self, group: Group, reachable: List[Group], name: str, scope: Scope) -> Tuple[str, str]:
        """The local TRF002 names, and why the handle is lost: added only to a weak
        collection, held by a local collection that dies with the frame (handled only
        by a loop that may ``break``), or held by a name never awaited, cancelled or stored."""
        for g in reachable:
            weak = self._weak_adds.get(id(g))
            if weak is not None:
                return name, TRF002_WHY["weak"].format(collection=weak)

        def broken(local: str) -> bool:  # a loop's flow made a look (``scopes.Recorder._for``)
            uses = scope.uses.get(local, ())
            return any(u.kind == U_HARMLESS and isinstance(u.target, Group) for u in uses)

        for g in reachable:
            for target, _ in self.flows_of(g):
                if isinstance(target, str):  # added to a local collection
                    return target, TRF002_WHY["broken" if broken(target) else "collection"]
        return name, TRF002_WHY["broken" if broken(name) else "never"]

    def _rebound_in_loop(self, group: Group, scope: Scope) -> bool:
        """``for c in cs: t = spawn(c)`` with ``t`` handled only after the loop."""
        for binding in group.bindings:
            if not binding.kills:
                continue
            frame = next((f for f in reversed(binding.frames) if f[0] != SUPPRESS), None)
            if frame is None or frame[0] != LOOP:
                continue
            loop = frame[1]
            if id(loop) in scope.loop_exits:
                continue
            start, end = _pos(loop), _end(loop)
            # Handled within the loop: awaited, cancelled, kept or guarded, or moved into
            # another holder (a collection, an alias) before the next pass rebinds the name.
            if any(_within(use.pos, start, end) for _, use in self.flows_of(group)):
                continue
            if any(
                _within(pos, start, end) and kind in (U_FINISH, U_KEEP, U_GUARD, U_RESULT)
                for kind, pos in self.events_of(group)
            ):
                continue
            if self.opaque(group):
                continue
            return True
        return False

    # ---------------------------------------------------------------- shield
    def _shields(self, scope: Scope) -> None:
        for site in scope.shields:
            if site.outer is not None and self._fate(site.outer, scope, (U_KEEP,)):
                continue  # the shield's future is kept, and with it the shielded task
            if site.spawn is not None:
                label = self.label(site.spawn, scope)
                if label is not None:
                    self._error("TRF004", site.node, what=f"a new task from {label}()")
            elif site.coro is not None or site.use is not None:
                coro, held = site.coro, ""
                if site.use is not None:  # (a local: of a task, or of a coroutine, ``c = f()``)
                    if self._shield_use(site.node, site.use, site.frames, scope):
                        continue
                    coro, held = bound_call(site.use.name, scope), f" held by local '{site.use.name}'"
                if coro is None or held_by_thread(coro, scope):
                    continue
                if coroutine_function(coro, scope):
                    what = f"coroutine {N.dotted_text(coro)}(){held} (it is wrapped in a new task)"
                    self._error("TRF004", site.node, what=what)
                else:
                    remote = self._remote_coroutine(coro, scope)
                    if remote is not None:
                        own = self.resolver is not None and self.resolver.is_own(remote.module)
                        where = f"line {remote.info.line}" if own else remote.where
                        self._error(
                            "TRF004", site.node, related=None if own else remote,
                            what=f"coroutine {N.dotted_text(coro)}(){held} ({where}; "
                            "it is wrapped in a new task)",
                        )

    def _shield_use(self, node: ast.Call, use: Use, frames: Frames, scope: Scope) -> bool:
        for binding in self._applicable(scope, use.name, use):
            group = binding.group
            if group is None or id(group) in self._reported:
                continue
            spawns = self._spawns(group, scope)
            if not spawns:
                continue
            if self._fate(group, scope, (U_KEEP,)) or awaited_by_body(node, frames, use.name, scope) and all(
                    label != N.GATHER for _, label in spawns):  # (a gather is done with children running)
                continue
            fate = self._fate(group, scope)
            if not self._lost_on_unwind(
                frames, fate, N.CANCEL_EXCEPTIONS, _end(node), Until(group, use.name, scope, shield=True)
            ):
                continue
            self._reported.add(id(group))
            line = spawns[0][0].node.lineno
            self._error("TRF004", node, what=f"task '{use.name}' (line {line})", lost=SHIELD_OF_LOCAL["lost"],
                        fix=SHIELD_OF_LOCAL["fix"])
            return True
        return False

    def _remote_coroutine(self, func: ast.expr, scope: Scope) -> Optional[Function]:
        """A coroutine function of another module of the project (or inherited
        from a class of this file) that ``func`` names: an imported name, a method
        of ``self`` a base defines, a method of an attribute or parameter whose
        class is written down."""
        resolver = self.resolver
        if resolver is None:
            return None
        found: Optional[Function] = None
        dotted = scope.imports.resolve(func)
        if dotted is not None:
            found = resolver.function(dotted, scope.imports.module_of(func))
        elif isinstance(func, ast.Attribute):
            found = self.summaries.receiver_method(scope, func.value, func.attr)
        return found if found is not None and found.info.is_async and not found.info.decorated else None

    # --------------------------------------------------------------- timeout
    def _timeouts(self, scope: Scope, live: List[Tuple[Group, List[Tuple[Spawn, str]]]]) -> None:
        for site in scope.timeouts:
            label = self._timeout_label(site)
            if label is None or (site.waits_only and not _waits_on_a_handle(site, live)):
                continue
            lost: List[Tuple[Group, Spawn]] = []
            for group, spawns in live:
                if id(group) in self._reported:
                    continue
                first = min(spawns, key=lambda item: item[0].pos)[0]
                if first.pos >= site.end or exclusive(first.frames, site.frames) or done_where(
                        site.frames, group.name, scope):  # (``if task in done:``: it is done there)
                    continue
                fate = self._fate(group, scope)
                if any(first.pos <= p <= site.end and not _exposed(site, first.pos, p) for p in fate):
                    continue
                until = Until(group, group.name, scope)
                if not self._lost_on_unwind(site.frames, fate, N.TIMEOUT_EXCEPTIONS, site.end, until):
                    continue
                self._reported.add(id(group))
                lost.append((group, first))
            if lost:
                group, first, others = first_lost(lost)  # one finding per site
                reachable, _ = self._reachable(group, scope)
                self._error(
                    "TRF003", site.node, name=self._display(group, reachable, scope),
                    what=what_of(first.callee or ""), line=first.node.lineno, call=label, others=others,
                    fix=TIMEOUT_FIXES[first.callee == N.THREADSAFE],
                )

    def _timeout_label(self, site: TimeoutSite) -> Optional[str]:
        """The timeout a site is: asyncio's or a configured one, or a name of
        another module of the project that stands for asyncio's (None: it is
        not one)."""
        if site.module is None:
            return site.label
        found = self.resolver.canonical(site.label, site.module) if self.resolver is not None else None
        wanted = N.TIMEOUT_BLOCKS if site.suspends is not None else frozenset({N.WAIT_FOR})
        return found if found in wanted else None

    def _lost_on_unwind(
        self, frames: Frames, fate: List[Pos], names: FrozenSet[str], site: Pos, until: "Until"
    ) -> bool:
        """Follow the exception raised at the site (which ends at ``site``) out
        through the enclosing ``try`` statements and ``contextlib.suppress``
        blocks: is the handle dropped without being handled?"""
        propagating = True
        for index in range(len(frames) - 1, -1, -1):
            kind, node, field = frames[index]
            if kind == SUPPRESS:
                item = node.items[field]  # type: ignore[attr-defined]
                if propagating and N.suppresses(item.context_expr, names):
                    # Caught at the block's end: the code after it runs.
                    if self._until_done(frames, index, node.body, site, until):  # type: ignore[attr-defined]
                        return False
                    return not any(p > _end(node) for p in fate)
                continue
            if kind != TRY or field == TRY_FINALLY:
                continue
            if propagating and field == TRY_BODY:
                handler = next(
                    (h for h in node.handlers if N.catches(h, names)),  # type: ignore[attr-defined]
                    None,
                )
                if handler is not None and not N.catches(handler, names, unreadable=False):
                    return False  # a handler that may catch it, or not: not known
                if handler is not None:
                    if any(_within(p, _pos(handler), _end(handler)) for p in fate):
                        return False
                    last = handler.body[-1]
                    if isinstance(last, ast.Return):
                        propagating = False
                    elif isinstance(last, (ast.Continue, ast.Break)):
                        return False
                    elif not isinstance(last, ast.Raise):
                        if self._in_finally(node, fate):
                            return False
                        body = node.body  # type: ignore[attr-defined]
                        if any(f[0] == LOOP for f in frames[:index]) and not until.shield or self._until_done(
                                frames, index, body, site, until):  # (caught in a loop: the frame goes on)
                            return False
                        return not any(p > _end(node) for p in fate)
            elif field == TRY_HANDLERS and propagating:
                pass
            if self._in_finally(node, fate):
                return False
        return True

    def _until_done(
        self, frames: Frames, index: int, body: List[ast.stmt], site: Pos, until: "Until"
    ) -> bool:
        """The exception is caught at ``frames[index]`` and the code goes on in the
        loop around it: does that loop run until the task is done?  It does when
        it is ``while not task.done():`` or, for a shield of the task, ``while
        True:``, when the task was made before the loop, and when every
        ``break``/``return`` of the loop comes after the site in the body the
        exception leaves (so it runs only once the await has returned)."""
        loop = next((f[1] for f in reversed(frames[:index]) if f[0] == LOOP), None)
        if not isinstance(loop, ast.While):
            return False
        test = loop.test
        if not (
            any(t.id == until.name for t in polled_tasks(test, negated_only=True))
            or (until.shield and isinstance(test, ast.Constant) and bool(test.value))
        ):
            return False
        start, end = _pos(loop), _end(loop)
        if any(_within(binding.pos, start, end) for binding in until.group.bindings):
            return False
        first, last = _pos(body[0]), _end(body[-1])
        done_when = self._left_when_done(frames[index][1], body, site, until)
        return all(
            (site <= exit_at and _within(exit_at, first, last))
            or any(_within(exit_at, start, end) for start, end in done_when)
            for exit_at in until.exits(loop)
        )

    def _left_when_done(
        self, node: ast.AST, body: List[ast.stmt], site: Pos, until: "Until"
    ) -> List[Tuple[Pos, Pos]]:
        """The handlers that run only once the shielded task is done: the ``try``
        body is just the await of the shield, and the handler does not catch
        ``CancelledError`` (awaiting a shield raises anything else only when the
        task itself has raised it)."""
        if not (until.shield and isinstance(node, ast.Try) and len(body) == 1):
            return []
        statement = body[0]
        value = statement.value if isinstance(statement, (ast.Expr, ast.Assign)) else None
        if isinstance(statement, ast.Assign) and not all(isinstance(t, ast.Name) for t in statement.targets):
            return []
        if not (isinstance(value, ast.Await) and _end(statement) == site):
            return []
        return [
            (_pos(handler), _end(handler))
            for handler in node.handlers
            if handler.type is not None and not N.catches(handler, N.CANCEL_EXCEPTIONS, unreadable=False)
        ]

    @staticmethod
    def _in_finally(node: ast.AST, fate: List[Pos]) -> bool:
        final = getattr(node, "finalbody", None)
        if not final:
            return False
        start, end = _pos(final[0]), _end(final[-1])
        return any(_within(p, start, end) for p in fate)
