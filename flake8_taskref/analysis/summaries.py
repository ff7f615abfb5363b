"""Summaries of the file's own functions, decided after the one pass from the
facts recorded for their bodies (``functions.py`` records the calls).

For a call ``helper(x)`` or ``self.helper(x)`` whose callee the file defines (at
module level, or in the class of the calling method), once, as a plain ``def``
(``@staticmethod`` and ``@classmethod`` allowed, no other decorator), with a
body that is more than a stub, the summary says, for the parameter an argument
binds:

* ``U_KEEP``: the function may keep it: stores it, returns it, yields it,
  passes it to something unknown, lets a nested function capture it, rebinds
  the name, or the callee is not known (an imported, nested, async or redefined
  function, a method not defined in the class: precision by construction);
* ``U_FINISH``: it does not keep it but cancels or awaits it;
* ``U_HARMLESS``: it only looks at it (done callbacks, logging, ``done()``,
  ``result()``, truth tests, adding it to a weak collection).

and whether the function returns a new task nobody else keeps (every ``return``
returns a spawn, or a local holding only spawns that is kept nowhere else): then
a call of it is a spawn, named by the call (``self._spawn()``), with no
configuration.
"""
from __future__ import annotations

import ast
from typing import Dict, FrozenSet, List, Optional, Protocol, Set, Tuple, Union

from flake8_taskref.analysis.facts import (
    U_ADD, U_CALL, U_FINISH, U_FLOW, U_HARMLESS, U_KEEP, U_RESULT, Binding, CallArg, CallbackArg,
    CallSite, CollectionAdd, FunctionNode, FutureSpawn, Group, ModuleFacts, Pos, Scope, Remote, Spawn,
    Use,
)
from flake8_taskref.analysis.lookups import (
    declared_inside, innermost_loop, local_type, shadowed, values_class, values_key,
)
from flake8_taskref.analysis import names as N
from flake8_taskref.analysis.arguments import (
    SPAWNER_NAMES,
    calls_and_drops,
    guard_of_keeping,
    spawns_through_alias,
    unkept_by,
    unkept_by_call,
)
from flake8_taskref.analysis.modules import (
    FINISHES,
    KEEPS,
    LOOKS,
    RESULT,
    RETURNS_NOTHING_KNOWN,
    RETURNS_TASK,
    RETURNS_TASKS,
    Class,
    Function,
    Resolver,
)

_DECORATORS = {"staticmethod": 0, "classmethod": 1}
# What another module's summary says a function does to a parameter, as a use.
_FATES = {KEEPS: U_KEEP, FINISHES: U_FINISH, LOOKS: U_HARMLESS, RESULT: U_RESULT}
FUTURE_LABELS = frozenset({N.GATHER, N.THREADSAFE})
_IN_PROGRESS = -1


def may_return_none(scope: Scope) -> bool:
    """Does the function return ``None`` on some path (a bare ``return``, or its
    end)?  Then it returns a new task on some paths only: no spawner (and
    ``--fix`` would keep a ``None``)."""
    node = scope.node
    if any(isinstance(e.node, ast.Return) and e.node.value is None for e in scope.exits):
        return True
    if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return False
    # the loops a ``break`` leaves, from the exits the pass recorded
    breaks = {id(innermost_loop(e.frames)) for e in scope.exits if isinstance(e.node, ast.Break)}
    return N.falls_through(node.body, lambda loop: id(loop) in breaks)


def returns_only_tasks(scope: Scope) -> bool:
    """Does every way out of the function return a value the analysis follows
    (a new task, a local, a new collection), never ``None`` (a bare ``return``,
    its end) nor an opaque value?  Only such a function can be a spawner."""
    returns = scope.returns
    return bool(returns) and not any(item is None for item in returns) and not may_return_none(scope)


def held_at(judge: "Judge", group: Group, scope: Scope) -> List[Pos]:
    """Where a function keeps a task it returns, besides its ``return``: a
    coroutine function's wait for it counts too (``await t; return t`` returns
    a task that is done, which its caller cannot lose)."""
    if isinstance(scope.node, ast.AsyncFunctionDef):
        return judge.handled_at(group, scope)
    return judge.kept_at(group, scope)


def returned_spawns(scope: Scope, judge: "Judge") -> List[Spawn]:
    """The spawns whose tasks a function returns: returned itself, in a
    returned collection, or bound to a returned local."""
    spawns = [item for item in scope.returns if isinstance(item, Spawn)]
    for item in scope.returns:
        if isinstance(item, Group):
            spawns.extend(item.spawns)
        elif isinstance(item, Use):
            for binding in judge.applicable(scope, item.name, item):
                if binding.group is not None:
                    spawns.extend(binding.group.spawns)
    return spawns


def returns_future_spawn(scope: Scope, judge: "Judge") -> bool:
    """Does a function return the future of ``ensure_future`` of a value it is given
    (``FutureSpawn``), a new task only where it is given a coroutine?"""
    return any(type(s) is FutureSpawn for s in returned_spawns(scope, judge))


def returns_task_or_none(scope: Scope) -> bool:
    """Does every way out of the function return a value the analysis follows
    or nothing a caller could lose (``return None``, a bare ``return``, its end,
    a loop executor's future: ``names.holds_nothing_to_lose``), with at least
    one of each?  Such a function returns a new task on some paths only: a
    spawn where its result is dropped by a statement of its own."""
    returns = scope.returns
    nones = sum(1 for item in returns if item is None)
    if nones != scope.inert_returns or nones == len(returns):
        return False  # an opaque value, or no task at all
    return nones > 0 or may_return_none(scope)


class Judge(Protocol):
    """What a summary asks of the rules: spawn labels, bindings, fates."""

    def label(self, spawn: Spawn, scope: Scope) -> Optional[str]: ...

    def applicable(self, scope: Scope, name: str, use: Use) -> List[Binding]: ...

    def kept_at(self, group: Group, scope: Scope) -> List[Pos]: ...

    def handled_at(self, group: Group, scope: Scope) -> List[Pos]: ...

    def captured(self, scope: Scope) -> Set[str]: ...

    def opaque(self, group: Group) -> bool: ...

    def flows_of(self, group: Group) -> List[Tuple[object, Use]]: ...


def _binding_scope(scope: Scope, name: str) -> Optional[Scope]:
    """The function scope that binds ``name`` once, as ``scope`` reads it: ``scope``
    itself, or for a free name the nearest enclosing function that binds it (a
    closure's ``exporter``); where no function in it declares the name ``nonlocal``
    (its nested functions are entered with it)."""
    while not scope.bindings.get(name):
        parent = scope.parent
        if name in scope.declared or parent is None or parent.kind != Scope.FUNCTION:
            return None
        scope = parent
    if len(scope.bindings[name]) != 1 or name in scope.declared or declared_inside(scope, name):
        return None
    return scope


class Summaries:
    """The summaries of one module's functions, computed when first asked."""

    def __init__(
        self, facts: ModuleFacts, judge: Judge, resolver: Optional[Resolver] = None,
        words: Optional[FrozenSet[str]] = None,
    ) -> None:
        self.judge = judge
        self._resolver: Optional[Resolver] = resolver if resolver is not None else facts.resolver
        # The names of every spawner of the project, when the caller has found
        # them (the project's index): a call by another name returns no new task.
        self._words: Optional[FrozenSet[str]] = words
        # each call's callee: (class scope, name) of this file, or another module's function
        self._targets: Dict[int, Union[Tuple[Scope, str], Function, None]] = {}
        self._scopes: Dict[int, Scope] = {
            id(scope.node): scope for scope in facts.scopes if scope.kind == Scope.FUNCTION
        }
        self._params: Dict[Tuple[int, str], int] = {}
        self._held: Optional[Set[int]] = None  # (``held_alone``)
        self._spawners: Dict[int, bool] = {}
        self._maybe: Dict[int, bool] = {}  # returns a new task or None (``maybe_spawner``)
        # functions that keep the task they return only when a parameter says
        # so: (the parameter, the truth value with which it keeps)
        self._guards: Dict[int, Tuple[str, bool]] = {}
        self._filled: Set[int] = set()  # the functions that return a list they fill with new tasks
        self._listing: Set[int] = set()  # the functions ``helper_returns_list`` is asking about
        self._facts: Optional[ModuleFacts] = facts
        # ``_given_coroutine``, by call (with the probe it asked the judge of, kept for its id)
        self._given: Dict[int, Tuple[bool, Optional[Spawn]]] = {}

    def release(self) -> None:
        """Break the cycle with the judge (the rules), for reference counting."""
        self.judge = None  # type: ignore[assignment]
        self._scopes = {}
        self._facts = None
        self._resolver = None
        self._targets = {}

    # ----------------------------------------------------------------- callee
    def target(self, call: CallSite) -> Union[Tuple[Scope, str], Function, None]:
        """What a call reaches: a function of this file (the module or class
        scope that defines it, and its name), a function of another module of the
        project, or nothing known."""
        key = id(call)
        if key not in self._targets:
            self._targets[key] = self._target(call)
        return self._targets[key]

    def _target(self, call: CallSite) -> Union[Tuple[Scope, str], Function, None]:
        owner = call.owner
        remote = call.remote
        found: Optional[Function] = None
        resolver = self._resolver
        facts = self._facts
        if resolver is None or facts is None:  # released
            return None
        if remote is None:
            assert owner is not None
            if call.name in owner.defs or owner.klass is None:
                return owner, call.name
            klass = self.own_class(owner)  # ``self.name(...)`` inherited from a base
            found = resolver.method(klass, call.name) if klass is not None else None
        elif remote.dotted is not None:
            found = resolver.function(remote.dotted, remote.module)
        else:
            klass = self._receiver_class(call, remote)
            found = resolver.method(klass, remote.method) if klass is not None else None
        if found is not None and found.module.name == (facts.name or N.NO_MODULE):
            # a method of a class of this file: its summary is this file's own
            class_name, _, method = found.qualname.partition(".")
            if not method and remote is not None and remote.dotted is not None:
                # a function of this file, reached through a module that
                # re-exports it (``facade.submit(...)``, ``facade`` importing it from here)
                module = facts.module
                return (module, class_name) if class_name in module.defs else None
            scope = facts.classes.get(class_name)
            return (scope, method) if scope is not None and method else None
        return found

    def own_class(self, scope: Optional[Scope]) -> Optional[Class]:
        """A class of this file, as the resolver knows it."""
        facts = self._facts
        if scope is None or facts is None or self._resolver is None:
            return None
        if not isinstance(scope.node, ast.ClassDef):
            return None
        if facts.classes.get(scope.node.name) is not scope:
            return None  # a nested class, or one defined twice
        return self._resolver.klass(f"{facts.name or N.NO_MODULE}.{scope.node.name}")

    def _receiver_class(self, call: CallSite, remote: Remote, loose: bool = False) -> Optional[Class]:
        """The class written down for ``self.<attr>`` or a parameter."""
        receiver = remote.receiver
        resolver = self._resolver
        assert resolver is not None
        if isinstance(receiver, ast.Name):
            scope = _binding_scope(call.scope, receiver.id)
            if scope is None:
                return None  # rebound in the function
            dotted = local_type(scope, receiver.id)
            return resolver.klass(dotted) if dotted else None
        key = values_key(receiver)  # ``self.stations[host]``, of a ``dict[str, Station]``
        if not isinstance(receiver, ast.Attribute) and key is None:
            return None  # a call's result (``Queue.for_key(key).retry(...)``), another subscript...
        cls_scope = call.scope.cls
        if cls_scope is None or cls_scope.klass is None:
            return None
        if key is not None:
            dotted = values_class(call.scope, key)
            return resolver.klass(dotted) if dotted else None
        assert isinstance(receiver, ast.Attribute)
        attr = receiver.attr
        if attr in cls_scope.klass.types:
            dotted = cls_scope.klass.types[attr]
            return resolver.klass(dotted) if dotted else None
        klass = self.own_class(cls_scope)
        return resolver.attr_type(klass, attr, loose) if klass is not None else None

    def receiver_method(
        self, scope: Scope, receiver: ast.expr, method: str, loose: bool = False,
    ) -> Optional[Function]:
        """The method ``receiver.method`` (``self.<attr>`` or a parameter whose
        class is written down, or ``self`` of a class with bases) of another
        module, or of a class of this file (its placeholder summary)."""
        resolver = self._resolver
        if resolver is None:
            return None
        if isinstance(receiver, ast.Name) and receiver.id in ("self", "cls"):
            klass = self.own_class(scope.cls)
        else:
            call = CallSite(ast.Call(receiver, [], []), method, None, True, scope)
            klass = self._receiver_class(call, Remote(receiver=receiver, method=method), loose)
        return resolver.method(klass, method, loose) if klass is not None else None

    def remote(self, call: CallSite) -> Optional[Function]:
        """The function of another module a call reaches, if it is known and
        plain enough to trust its summary (no coroutine function, decorator or
        stub)."""
        found = self.target(call)
        if not isinstance(found, Function):
            return None
        info = found.info
        if info.is_async or info.stub or info.decorated:
            return None
        return found

    def named_callee(self, call: CallSite) -> Optional[Function]:
        """The function of another module a spawn's message names: the one a
        call reaches (a coroutine function's, for ``await helper()``)."""
        if not call.awaited:
            return self.remote(call)
        found = self.target(call)
        return found if isinstance(found, Function) else None

    def callee(self, call: CallSite, coroutine: bool = False) -> Optional[Tuple[Scope, List[str]]]:
        """The function scope of this file a call reaches, and its parameters as
        the call's positional arguments bind them; None if it is not known.
        ``coroutine``: a coroutine function's (for ``await helper()``), else a
        plain function's."""
        found = self.target(call)
        if found is None or isinstance(found, Function):
            return None
        owner, name = found
        node = owner.defs.get(name)
        if node is None or name in owner.rebound or isinstance(node, ast.AsyncFunctionDef) != coroutine:
            return None
        if not call.bound and shadowed(call.scope, name):
            return None
        skip = 1 if call.bound else 0
        for decorator in node.decorator_list:
            kind = _DECORATORS.get(decorator.id) if isinstance(decorator, ast.Name) else None
            if kind is None or not call.bound:
                return None
            skip = kind
        if stub(node):
            return None
        scope = self._scopes.get(id(node))
        if scope is None or scope.generator:
            return None
        params = [arg.arg for arg in node.args.posonlyargs + node.args.args]
        return scope, params[skip:]

    # ------------------------------------------------------------- parameters
    def argument(self, where: CallArg) -> int:
        """What the callee does to the argument: U_KEEP, U_FINISH, U_HARMLESS or
        U_RESULT (for a ``CallbackArg``, to the task it makes: U_HARMLESS if the
        callee drops it)."""
        if isinstance(where, CallbackArg):
            return U_HARMLESS if self.drops_result(where) else U_KEEP
        found = self.callee(where.call)
        if found is None:
            remote = self.remote(where.call)
            if remote is None or self._resolver is None:
                return U_KEEP
            fate = self._resolver.fate(remote, where.index, where.keyword, where.call.bound)
            return _FATES.get(fate, U_KEEP)
        scope, positional = found
        node: FunctionNode = scope.node  # type: ignore[assignment]
        if where.keyword is None:
            if where.index >= len(positional):
                return U_KEEP  # into ``*args``, or an error
            name = positional[where.index]
        else:
            names = {arg.arg for arg in node.args.args + node.args.kwonlyargs}
            if where.keyword not in names:
                return U_KEEP
            name = where.keyword
        return self.parameter(scope, name)

    def drops_result(self, where: CallArg) -> bool:
        """Does the callee call the argument (a callable) as a statement,
        dropping what it returns (``def run_hook(hook): hook()``)?"""
        found = self.callee(where.call)
        if found is None:
            remote = self.remote(where.call)
            if remote is None or self._resolver is None:
                return False
            return self._resolver.drops_result(remote, where.index, where.keyword, where.call.bound)
        scope, positional = found
        node: FunctionNode = scope.node  # type: ignore[assignment]
        if where.keyword is None:
            if where.index >= len(positional):
                return False
            name = positional[where.index]
        else:
            if where.keyword not in {arg.arg for arg in node.args.args + node.args.kwonlyargs}:
                return False
            name = where.keyword
        return calls_and_drops(scope, name)

    def parameter(self, scope: Scope, name: str) -> int:
        key = (id(scope), name)
        found = self._params.get(key)
        if found is not None:
            return U_KEEP if found == _IN_PROGRESS else found
        self._params[key] = _IN_PROGRESS
        result = self._parameter(scope, name)
        self._params[key] = result
        return result

    def _parameter(self, scope: Scope, name: str) -> int:
        if name in scope.declared or name in self.judge.captured(scope):
            return U_KEEP
        if len(scope.bindings.get(name, ())) != 1:
            return U_KEEP  # rebound in the function
        result = U_HARMLESS
        for use in scope.uses.get(name, ()):
            kind = use.kind
            if kind == U_CALL:
                assert isinstance(use.target, CallArg)
                kind = self.argument(use.target)
            elif kind == U_ADD:
                assert isinstance(use.target, CollectionAdd) and self._facts is not None
                kind = self._facts.added(use.target)
            if kind == U_KEEP or kind == U_FLOW:
                return U_KEEP
            if kind == U_FINISH:
                result = U_FINISH
            elif kind == U_RESULT and result != U_FINISH:
                result = U_RESULT  # a finish for a threadsafe future (the caller decides)
        return result

    # --------------------------------------------------------------- spawners
    def spawner(self, call: CallSite, spawn: Optional[Spawn] = None) -> bool:
        """Does the call's callee return a new task that nothing else keeps?
        (For a call whose result a statement of its own drops, or a local that
        flows nowhere holds (``held_alone``: the ``spawn`` of the call), a new
        task or ``None`` will do: ``maybe_spawner``.)"""
        if call.awaited:  # recorded only as a statement of its own
            return self._awaited_spawner(call, or_none=True)
        held = spawn is not None and self.held_alone(spawn)
        return (self._strict_spawner(call) or self.maybe_spawner(call, held)) and self._given_coroutine(call)

    def _given_coroutine(self, call: CallSite) -> bool:
        """A helper returning ``ensure_future(param)`` (``FutureSpawn``) makes a new task only where the
        call gives that parameter a coroutine that may wait (``Judge.label``); any other helper: True."""
        if id(call) not in self._given:
            self._given[id(call)] = self._gives_coroutine(call)
        return self._given[id(call)][0]

    def _gives_coroutine(self, call: CallSite) -> Tuple[bool, Optional[Spawn]]:
        found = self.callee(call)
        if found is not None:
            if not returns_future_spawn(found[0], self.judge):
                return True, None
            name = next((p for p in found[1] if self.runs_parameter(found[0], p)), "")  # (as ``runs``)
            index = found[1].index(name) if name else -1
        else:
            remote = self.remote(call)
            whole = self._resolver.whole_function(remote) if remote and self._resolver else None
            if whole is None or not whole.info.ensures:
                return True, None
            index = whole.info.runs - whole.info.skipped(call.bound) if whole.info.runs >= 0 else -1
        args = call.node.args
        given = args[index] if 0 <= index < len(args) else None
        if not isinstance(given, ast.Call) or any(isinstance(arg, ast.Starred) for arg in args[:index + 1]):
            return False, None
        imports = call.scope.imports
        if imports.resolve(given.func) in N.TASK_SPAWNERS or getattr(given.func, "attr", "") in (
                N.LOOP_SPAWN_METHODS) or N.returns_future(given, imports):
            return False, None
        node = ast.copy_location(ast.Call(ast.Name("ensure_future", ast.Load()), [given], []), given)
        probe = Spawn(node, "asyncio.ensure_future", None, ())  # (kept: the judge's labels are by id)
        return self.judge.label(probe, call.scope) is not None, probe

    def some_paths_held(self, spawn: Spawn) -> bool:
        """A helper's call that returns a new task on some paths only, held
        alone by a local (``held_alone``)?"""
        helper = spawn.helper
        return helper is not None and self.held_alone(spawn) and self.maybe_spawner(helper, True)

    def held_alone(self, spawn: Spawn) -> bool:
        """Is a helper's call bound to a local that flows nowhere (no other
        name, collection or attribute takes it from the local) and that the
        function does not return?  What the local then does decides: a task
        the helper returns on some paths only is reported there, where the
        handle is lost on the paths where it is one."""
        held = self._held
        if held is None:
            flows = self.judge.flows_of
            held = self._held = {
                id(item) for scope in self._scopes.values() for group in scope.groups
                if group.name and not flows(group)
                and not any(isinstance(out, Use) and out.name == group.name for out in scope.returns)
                for item in group.spawns if item.helper is not None
            }
        return id(spawn) in held

    def maybe_spawner(self, call: CallSite, held: bool = False) -> bool:
        """Does the callee of a call whose result is dropped (or ``held`` by a
        local that flows nowhere: ``held_alone``) return a new task
        on some paths and ``None`` on the others (``returns_task_or_none``)?
        Then its spawn is reported and ``--fix`` leaves it."""
        if not (call.dropped or held):
            return False
        if call.awaited:
            return self._awaited_spawner(call, or_none=True) and not self._awaited_spawner(call)
        found = self.callee(call)
        if found is not None:  # (no strict spawner returns None: ``returns_only_tasks``)
            return self._maybe_scope(found[0])
        remote = self.remote(call) if self._words is None or call.name in self._words else None
        resolver = self._resolver
        if remote is None or resolver is None:
            return False
        whole = resolver.whole_function(remote)  # (a summary in part may not have entered it)
        return whole is not None and whole.info.or_none and resolver.returns_task(remote, or_none=True)

    def runs_first_argument(self, call: CallSite) -> bool:
        """Does the helper a call reaches return a task that runs the call's
        first argument, its first parameter (``def spawn(coro, name=None):
        return asyncio.create_task(coro, name=name)``)?  Then what that task can
        do is what the argument's coroutine does."""
        args = call.node.args
        if not args or isinstance(args[0], ast.Starred):
            return False
        found = self.callee(call)
        if found is not None:
            return bool(found[1]) and self.runs_parameter(found[0], found[1][0])
        remote = self.remote(call)
        resolver = self._resolver
        whole = resolver.whole_function(remote) if remote is not None and resolver is not None else None
        if whole is None or whole.info.runs < 0:
            return False
        return whole.info.runs == whole.info.skipped(call.bound)

    def runs_parameter(self, scope: Scope, name: str) -> bool:
        """Is every task the function returns asyncio's spawn of one coroutine
        (``create_task``, a loop's, ``ensure_future``) given the parameter
        ``name``, which it never binds again?"""
        if len(scope.bindings.get(name, ())) != 1 or not scope.returns or None in scope.returns:
            return False
        spawns = returned_spawns(scope, self.judge)
        return bool(spawns) and all(
            spawn.helper is None and spawn.runs_one_coroutine and isinstance(spawn.node, ast.Call)
            and bool(spawn.node.args) and isinstance(spawn.node.args[0], ast.Name)
            and spawn.node.args[0].id == name for spawn in spawns)

    def _maybe_scope(self, scope: Scope) -> bool:
        key = id(scope)
        if key not in self._maybe:
            self._maybe[key] = False  # while deciding: a cycle returns no new task
            self._maybe[key] = not scope.generator and self._returned_groups(scope, or_none=True) is not None
        return self._maybe[key]

    def _awaited_spawner(self, call: CallSite, or_none: bool = False) -> bool:
        """``await helper()`` as a statement: does the coroutine function
        return a new task nobody else keeps (or ``None``, with ``or_none``)?"""
        found = self.callee(call, coroutine=True)
        if found is not None:
            scope = found[0]
            if scope.generator:
                return False
            if or_none and self._maybe_scope(scope):
                return True
            return self.spawner_scope(scope) and self.guard_of(scope) is None
        if self._words is not None and call.name not in self._words:
            return False
        found_remote = self.target(call)
        resolver = self._resolver
        # (``returns_task`` asks for a coroutine function, no stub, no decorator)
        return isinstance(found_remote, Function) and resolver is not None and resolver.returns_task(
            found_remote, awaited=True, or_none=or_none)

    def _strict_spawner(self, call: CallSite) -> bool:
        found = self.callee(call)
        if found is None and call.remote is None and self._wrapped(call):
            return True
        if found is None:
            resolver = self._resolver
            alias = self.spawner_alias(call)
            if alias is not None:  # ``create_task = asyncio.create_task`` in another module
                return spawns_through_alias(call, alias)
            if self._words is not None and call.name not in self._words:
                return False  # not a name any spawner of the project has (the index says)
            decorated = self._decorated_remote(call)
            if decorated is not None:
                return resolver is not None and resolver.returns_task(decorated)
            remote = self.remote(call)
            if remote is None or resolver is None or not resolver.returns_task(remote):
                return False
            whole = resolver.whole_function(remote)
            info = whole.info if whole is not None else remote.info
            if not info.guard[0]:
                return True
            skipped = info.skipped(call.bound)
            return unkept_by(call.node, info.guard, list(info.params[skipped:]), list(info.kwonly))
        scope = found[0]
        key = id(scope)
        if key in self._spawners:
            result = self._spawners[key]
        else:
            self._spawners[key] = False  # while deciding: a cycle returns no new task
            result = self._spawner(scope)
            self._spawners[key] = result
        guard = self._guards.get(key)
        return result and (guard is None or unkept_by_call(call, scope, guard))

    def _spawner(self, scope: Scope) -> bool:
        return self._returned_groups(scope, guarded=True) is not None

    def spawner_alias(self, call: CallSite) -> Optional[str]:
        """The asyncio spawner the name a call of another module's name is
        bound to, if any (``create_task = asyncio.create_task``, also on each
        branch of a version switch)."""
        remote = call.remote
        resolver = self._resolver
        if remote is None or not remote.dotted or resolver is None:
            return None
        if self._words is not None and call.name not in self._words and call.name not in SPAWNER_NAMES:
            return None
        return resolver.spawner_alias(remote.dotted, remote.module)

    def may_spawn(self, call: CallSite) -> bool:
        """Can a call that reaches no summarised function still return a new
        task: a function decorated so, a name bound to asyncio's?"""
        found = self.target(call)
        if isinstance(found, Function):
            return self._decorated_remote(call) is not None
        if found is None:
            return self.spawner_alias(call) is not None
        node = found[0].defs.get(found[1])
        if node is None or len(node.decorator_list) != 1:
            return False
        return bool(self.wrappers(call)) or self._imported_wrapper(call)

    def _decorated_remote(self, call: CallSite) -> Optional[Function]:
        """A function of another module (or inherited) that one decorator of the
        project decorates, which ``Resolver.returns_task`` judges."""
        found = self.target(call)
        if isinstance(found, Function) and found.info.decorator and not found.info.stub:
            return found
        return None

    def _wrapped(self, call: CallSite) -> bool:
        """Is the callee, a function of this file, decorated by one (a bare
        name, the only decorator) whose every ``return`` returns a function it
        defines (once, not ``async``) that returns a new task nobody keeps
        (``@background``: its wrapper returns ``asyncio.create_task(fn(...))``)?"""
        wrappers = self.wrappers(call)
        if wrappers:
            return all(self._returned_groups(inner) is not None for inner in wrappers)
        return self._imported_wrapper(call)

    def _imported_wrapper(self, call: CallSite) -> bool:
        """Is the callee, a function of this file, decorated (only) by such a
        decorator of another module (``Exported.wraps``)?"""
        found = self.target(call)
        facts = self._facts
        resolver = self._resolver
        if found is None or isinstance(found, Function) or facts is None or resolver is None:
            return False
        owner, name = found
        node = owner.defs.get(name)
        if node is None or name in owner.rebound or len(node.decorator_list) != 1 or stub(node):
            return False
        dotted = facts.module.imports.resolve(node.decorator_list[0])
        if dotted is None or dotted.partition(".")[0] in N.STDLIB:
            return False
        decorator = resolver.function(dotted, facts.module.imports.module_of(node.decorator_list[0]))
        whole = resolver.whole_function(decorator) if decorator is not None else None
        return whole is not None and whole.info.wraps and not whole.info.decorated

    def wrappers(self, call: CallSite) -> List[Scope]:
        """The functions a decorator of the file returns in place of the
        callee (see ``_wrapped``); none when that is not the shape."""
        found = self.target(call)
        facts = self._facts
        if found is None or isinstance(found, Function) or facts is None:
            return []
        owner, name = found
        node = owner.defs.get(name)
        if node is None or name in owner.rebound or (not call.bound and shadowed(call.scope, name)):
            return []
        decorators = node.decorator_list
        if len(decorators) != 1 or not isinstance(decorators[0], ast.Name) or stub(node):
            return []
        module = facts.module
        decorator = module.defs.get(decorators[0].id)
        if not isinstance(decorator, ast.FunctionDef) or decorator.decorator_list or (
            decorators[0].id in module.rebound or decorators[0].id in owner.bindings and owner is not module
        ):
            return []
        scope = self._scopes.get(id(decorator))
        return self.wrapper_scopes(scope) if scope is not None else []

    def scope_of(self, node: ast.AST) -> Optional[Scope]:
        """The entered scope of a function of this file (None: not entered)."""
        return self._scopes.get(id(node))

    def returned_groups(self, scope: Scope) -> Optional[List[Group]]:
        return self._returned_groups(scope)

    def wrapper_scopes(self, scope: Scope) -> List[Scope]:
        """The functions a function defines and returns (each once, not
        ``async``) if that is all it returns: a decorator's wrappers."""
        if scope.generator or not scope.returns:
            return []
        found_scopes: List[Scope] = []
        for item in scope.returns:
            if not isinstance(item, Use) or len(scope.bindings.get(item.name, ())) != 1:
                return []
            inner = [child for child in scope.children
                     if isinstance(child.node, ast.FunctionDef) and child.node.name == item.name]
            if len(inner) != 1 or inner[0].generator:
                return []
            found_scopes.append(inner[0])
        return found_scopes

    def spawner_scope(self, scope: Scope) -> bool:
        """Does the function of this file return a new task nobody else keeps
        (perhaps only when a parameter says so: ``guard_of``)?"""
        key = id(scope)
        if key not in self._spawners:
            self._spawners[key] = False
            self._spawners[key] = self._spawner(scope)
        return self._spawners[key]

    def guard_of(self, scope: Scope) -> Optional[Tuple[str, bool]]:
        return self._guards.get(id(scope))

    def _returned_groups(
        self, scope: Scope, guarded: bool = False, or_none: bool = False,
    ) -> Optional[List[Group]]:
        """The groups a function returns, if every ``return`` returns a new task
        nobody else keeps (or a new collection of them); else None.  With
        ``guarded``, also when every other place that keeps it is the branch of
        an ``if`` on a parameter (``if keep_ref: _tasks.add(t)``): the guard is
        noted, and each call is judged by its argument (``spawner``)."""
        returns = scope.returns
        if not (returns_task_or_none(scope) if or_none else returns_only_tasks(scope)):
            return None
        at = {item.pos for item in returns if isinstance(item, Use)}
        at.update(pos for item in returns if isinstance(item, Group) for _, pos in item.events)
        guards: Set[Tuple[str, bool]] = set()
        groups: List[Group] = []
        for item in returns:
            if item is None:
                continue  # ``return None`` (``or_none``)
            if isinstance(item, Spawn):
                if not self.new_task(item, scope):
                    return None
                continue
            if isinstance(item, Group):
                candidates = [item]
            else:
                assert isinstance(item, Use)
                candidates = [binding.group for binding in self.judge.applicable(scope, item.name, item)
                              if binding.group is not None]
                if not candidates or len(candidates) != len(self.judge.applicable(scope, item.name, item)):
                    return None
            filled = filled_groups(scope, candidates, self.judge)
            if filled is not None:
                if any(pos not in at for pos in held_at(self.judge, candidates[0], scope)):
                    return None
                candidates = filled
                self._filled.add(id(scope))
            for group in candidates:
                if self.judge.opaque(group) or not group.spawns:
                    return None
                if not all(self.new_task(spawn, scope) for spawn in group.spawns):
                    return None
                elsewhere = [pos for pos in held_at(self.judge, group, scope) if pos not in at]
                if elsewhere:
                    guard = guard_of_keeping(scope, group, elsewhere) if guarded else None
                    if guard is None:
                        return None  # kept elsewhere too: callers may drop it
                    guards.add(guard)
                groups.append(group)
        if len(guards) > 1 or guards and or_none:
            return None
        if guards:
            self._guards[id(scope)] = guards.pop()
        return groups

    def new_task(self, spawn: Spawn, scope: Scope) -> bool:
        """A spawn that makes a new task, for what a function returns (``ensure_future(param)`` of a
        plain function: one to a call that gives it a coroutine, ``_given_coroutine``; of a coroutine
        function, none: ``await spawn(task)`` is not judged)."""
        if type(spawn) is FutureSpawn:
            return not isinstance(scope.node, ast.AsyncFunctionDef)
        return self.judge.label(spawn, scope) is not None

    def returned(self, scope: Scope) -> Tuple[int, bool]:
        """What a function of this file returns, for the messages of its calls
        (as ``exports.Exported.returned`` says it to other modules): a new task
        (or a list, tuple or set of them, also one it fills) nobody keeps, and
        whether its spawns make futures (``gather``, ``run_coroutine_threadsafe``)."""
        groups = self._returned_groups(scope)
        if groups is None and self.guard_of(scope) is not None:  # kept when a parameter says so
            groups = self._returned_groups(scope, guarded=True)
        if groups is None and returns_task_or_none(scope):  # "(on some paths)"
            groups = self._returned_groups(scope, or_none=True)
        if groups is None:
            return RETURNS_NOTHING_KNOWN, False
        spawns = [item for item in scope.returns if isinstance(item, Spawn)]
        spawns += [spawn for group in groups for spawn in group.spawns]
        labels = [self.judge.label(spawn, scope) or "" for spawn in spawns]
        future = bool(labels) and all(label in FUTURE_LABELS for label in labels)
        collection = id(scope) in self._filled or any(group.collection for group in groups) or any(
            spawn.helper is not None and self.helper_returns_list(spawn.helper) for spawn in spawns)
        return RETURNS_TASKS if collection else RETURNS_TASK, future

    def helper_returns_list(self, call: CallSite) -> bool:
        """Does a call of a helper (``return spawn_all(coros)``) return a list,
        tuple or set of new tasks, as another module's summary or this file's
        function says?"""
        remote = self.named_callee(call)
        if remote is not None:
            return self._resolver is not None and self._resolver.returns_list(remote)
        found = self.callee(call, coroutine=call.awaited)
        if found is None or id(found[0]) in self._listing:
            return False  # (a cycle of helpers returning each other's results)
        self._listing.add(id(found[0]))
        try:
            return self.returned(found[0])[0] == RETURNS_TASKS
        finally:
            self._listing.discard(id(found[0]))


def filled_groups(scope: Scope, groups: List[Group], judge: Judge) -> Optional[List[Group]]:
    """For a returned local bound once to a new empty list or set (``tasks =
    []``) and filled with ``append``/``add``/``extend`` (``for c in coros:
    tasks.append(asyncio.create_task(c))``): the groups of what flows into it
    and into nothing else; None for any other."""
    if len(groups) != 1:
        return None
    group = groups[0]
    if group.spawns or judge.opaque(group) or len(group.bindings) != 1:
        return None
    stmt = group.bindings[0].stmt
    value = stmt.value if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 or (
        isinstance(stmt, ast.AnnAssign)) else None
    if not (
        isinstance(value, (ast.List, ast.Set)) and not value.elts
        or isinstance(value, ast.Call) and isinstance(value.func, ast.Name)
        and value.func.id in ("list", "set") and not value.args and not value.keywords
    ):
        return None
    fed = []
    for other in scope.groups:
        targets = [(target, use) for target, use in other.flows if target == group.name]
        if not targets:
            continue
        if len(targets) != len(other.flows):
            return None  # it flows elsewhere too
        for target, use in targets:
            bindings = judge.applicable(scope, group.name, use)
            if [binding.group for binding in bindings] != [group]:
                return None
        fed.append(other)
    return fed or None


def stub(node: FunctionNode) -> bool:
    """A body that only documents, passes or raises: a method meant to be
    overridden (``...``, ``pass``, ``raise NotImplementedError``), also after
    ``_ = context, device_id``, which marks its parameters as unused
    (pymodbus's ``ModbusPDU.datastore_update``)."""
    for stmt in node.body:
        if isinstance(stmt, ast.Pass) or isinstance(stmt, ast.Raise):
            continue
        if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant):
            continue
        if isinstance(stmt, ast.Assign) and _marks_unused(stmt):
            continue
        return False
    return True


def _marks_unused(stmt: ast.Assign) -> bool:
    """``_ = param`` or ``_ = a, b``: names marked as unused, nothing done."""
    value = stmt.value
    items = value.elts if isinstance(value, ast.Tuple) else [value]
    return all(isinstance(item, ast.Name) for item in items) and all(
        isinstance(target, ast.Name) and target.id == "_" for target in stmt.targets)
