"""The coroutine function of this file that a spawn runs, and what its body
says of the task that runs it.

``create_task(self._run())``, ``loop.create_task(work())``: the first argument
is a call of a coroutine function this file defines (a function of an enclosing
scope, or a method of the class, bound once), whose scope the one pass entered.
Two things of that body matter to the rules:

* it never suspends (``rules._never_suspends``, for ``run_coroutine_threadsafe``):
  its task runs to its end in its first step;
* it keeps its own task (``keeps_itself``): it stores ``asyncio.current_task()``
  where it outlives the frame (``self._stop_task = asyncio.current_task()``),
  on every path before it first waits (``ScopeVisitor._before_any_wait``).
  Until its first step the loop's queue holds the task; from then on the
  attribute does, so no caller must.  Such a spawn is not reported (the
  analysis cannot prove the task lost); docs/rules/TRF001.md says so.

And a local bound once to a coroutine (``makes_coroutine``: a coroutine method of
an event loop, a coroutine function of asyncio, a coroutine function of this
file), which ``asyncio.ensure_future(coro)`` wraps in a new task
(``bound_to_coroutine``); any other name may hold a future, which it returns
unchanged.
"""
from __future__ import annotations

import ast
from typing import TYPE_CHECKING, List, Optional, Set, Tuple

from flake8_taskref.analysis import names as N
from flake8_taskref.analysis.facts import (
    LOOP, TRY, TRY_BODY, TRY_FINALLY, TRY_HANDLERS, U_ADD, U_HARMLESS, U_KEEP, CollectionAdd, Exit, Frames,
    Group, ModuleFacts, Pos, Scope, Spawn, Use, enclosing_binder,
)
from flake8_taskref.analysis.lookups import (
    assigned_value, declared_inside, dotted_root, exclusive, innermost_loop, is_current_task, module_scope,
    shadowed,
)
from flake8_taskref.analysis.options import Options
from flake8_taskref.analysis.scopes import end_of, pos_of
from flake8_taskref.analysis.summaries import may_return_none, returns_task_or_none, stub as _stub

if TYPE_CHECKING:
    from flake8_taskref.analysis.modules import Function, Resolver
    from flake8_taskref.analysis.summaries import Summaries

__all__ = [
    "own_coroutine", "self_keepers", "keeps_itself", "assigned", "makes_coroutine", "bound_to_coroutine",
    "bound_call", "coroutine_function", "cleared_by_itself", "tests_current_task", "never_suspends",
    "suspends_at", "plain_call", "quiet_lock", "uncalled", "held_by_thread", "quiet_entry",
]

# (id of the scope that defines it, its name): the coroutine functions that keep their task.
Keepers = Set[Tuple[int, str]]
_SELF = ("self", "cls")


def _owner(func: ast.expr, scope: Scope) -> Tuple[Optional[Scope], str]:
    """The scope that defines the function ``func`` names, seen from ``scope``,
    and its name (``None`` when it is not a function of this file)."""
    if isinstance(func, ast.Name):
        current: Optional[Scope] = scope
        while current is not None:
            if current.kind != Scope.CLASS and func.id in current.async_defs:
                return current, func.id
            if func.id in current.bindings and current.kind != Scope.CLASS:
                return None, ""
            current = current.parent
        return None, ""
    own = isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id in _SELF
    if own and isinstance(func, ast.Attribute) and scope.cls is not None and func.attr in scope.cls.bindings:
        return scope.cls, func.attr
    return None, ""


def held_by_thread(func: Optional[ast.expr], scope: Scope) -> bool:
    """Is ``func`` asyncio's ``to_thread``, whose task is held while it runs:
    the default executor's work item holds the thread's future, whose callback
    holds the task's future, whose callback holds the task, and once the thread
    is done the loop's queue does, until the task ends in its next step (a task
    that only runs ``asyncio.to_thread(fn)`` cannot be collected: hassette's
    ``shield`` of one, a false alarm of the thirty-eighth trial's sweep)."""
    root = dotted_root(func) if func is not None else None
    if not isinstance(root, ast.Name) or shadowed(scope, root.id):
        return False  # (``def f(asyncio): asyncio.to_thread(...)``)
    if root.id in module_scope(scope).bindings:
        return False  # bound in the module but by the import (``async def to_thread(...)``)
    return func is not None and scope.imports.resolve(func) == "asyncio.to_thread"


def uncalled(arg: ast.expr, scope: Scope) -> bool:
    """Is a spawn's argument a coroutine function of the file, by its name, handed
    without its call (``create_task(stop)``)?  ``create_task`` raises
    ``TypeError`` before any task exists: a bug, but no task to lose.  Not a
    method (``create_task(self._stop)``, splitio's synchronizer, a false alarm of
    the thirty-sixth trial's sweep, left): an instance attribute stored in a
    function the text shortcut leaves cold may hide it."""
    owner, name = _owner(arg, scope) if isinstance(arg, ast.Name) else (None, "")
    return owner is not None and name in owner.async_defs and name not in owner.rebound


def own_coroutine(func: ast.expr, scope: Scope) -> Optional[Scope]:
    """The entered scope of the coroutine function of this file that ``func``
    names in ``scope``: bound once, defined once; else None."""
    owner, name = _owner(func, scope)
    if owner is None or name not in owner.async_defs or name in owner.rebound:
        return None
    entered = owner.entered_async.get(name, ())
    return entered[0] if len(entered) == 1 else None


def never_suspends(
    coro: Optional[ast.expr], scope: Scope, facts: ModuleFacts, summaries: "Summaries",
    resolver: Optional["Resolver"], _seen: Optional[Set[int]] = None,
) -> bool:
    """Is ``coro`` (the coroutine a task runs) a call of a coroutine function
    whose body never suspends (no ``await``, ``async for``, ``async with``): its
    task runs it to its end in one step, while the loop's queue holds the task,
    so it is never pending unkept.  (Threads notify the loop so, with
    ``event.set()`` in a coroutine; a loop's own ``create_task`` of a coroutine
    that only updates state is the same: docs/rules/TRF001.md.)  A body whose
    only waits are awaited calls (``Scope.waits_on``) never suspends if none of
    those coroutines does, followed through the file's coroutines (and one
    step into another module's, whose own waits count as waits)."""
    if not isinstance(coro, ast.Call):
        return False
    if N.puts_into_queue(coro) or N.yields_once(coro, scope.imports.resolve(coro.func)):
        return True  # ``queue.put(item)``, ``asyncio.sleep(0)``: see ``Scope.may_wait``
    func = coro.func
    awaited = _seen is not None  # asked of a call the coroutine awaits
    if awaited and not _followed(func, scope, facts):
        return False
    coroutine: Optional[Scope] = None
    if isinstance(func, ast.Attribute):
        own = isinstance(func.value, ast.Name) and func.value.id in ("self", "cls")
        if own and scope.cls is not None and assigned(facts, scope.cls, func.attr, set()):
            return False  # ``self.hook = callback`` may hide the method
        if not own or (scope.cls is not None and func.attr not in scope.cls.bindings):
            # a method of a receiver whose class is written down, or of a base of another module
            found = summaries.receiver_method(scope, func.value, func.attr, loose=True)
            if found is None or resolver is None or not found.info.is_async or (
                awaited and found.info.decorated
            ):
                return False
            if found.module.name != (facts.name or N.NO_MODULE):
                whole = resolver.whole_function(found)
                return whole is not None and not whole.info.may_wait and not whole.info.stub
            coroutine = _entered_method(found, facts)  # of a class of this file: followed as one's own
            if coroutine is None:
                return False
    if isinstance(func, ast.Name) and not awaited and resolver is not None:
        qualname = None if shadowed(scope, func.id) else scope.imports.resolve(func)
        if qualname is not None:  # a coroutine function of another module (no hook a subclass overrides)
            found = resolver.function(qualname, scope.imports.module_of(func))
            whole = resolver.whole_function(found) if found is not None and found.info.is_async else None
            return whole is not None and not whole.info.may_wait
    coroutine = coroutine or own_coroutine(func, scope)
    if coroutine is None:
        return False
    # a decorator is taken to keep what the body does (a tracer, a logger), in
    # the coroutine spawned (not in one it awaits: ``@retry`` may sleep);
    # a stub (``pass``, a docstring) is a hook a subclass overrides (or a placeholder of
    # a function still to write), but for a method of an object the scope makes from its class
    node_of = coroutine.node
    if not isinstance(node_of, ast.AsyncFunctionDef):
        return False
    hook = _stub(node_of) and not (_exact(func, scope, facts) and not any(
        name == node_of.name for _, name in facts.attr_stores))  # (``obj.method = other``)
    if coroutine.may_wait or hook or (
        awaited and node_of.decorator_list
    ) or (coroutine.returns_value and not awaited and (
            coroutine.opaque_returns or _returns_new_task(coroutine, summaries, facts))):
        return False  # (what an awaited one returns, its caller has)
    if not all(quiet_lock(facts, attr) for attr in coroutine.lock_entries):
        return False
    if not coroutine.waits_on:
        return True
    seen = _seen if _seen is not None else set()
    if id(coroutine) in seen:
        return True  # a coroutine that awaits itself: what else it awaits decides
    if len(seen) >= _DEPTH:
        return False
    seen.add(id(coroutine))
    return all(never_suspends(call, coroutine, facts, summaries, resolver, seen)
               for call in coroutine.waits_on)


def _exact(func: ast.expr, scope: Scope, facts: ModuleFacts) -> bool:
    """Is ``func`` a method called on a local bound once, in ``scope``, to a call
    of a class of this file by its name (``handler = LogHandler()``, then
    ``handler.setup()``)?  The method found through that class is the one that
    runs: no subclass overrides it there (elephantq's ``setup_database()``, a
    stub spawned so, a false alarm of the thirty-eighth trial's sweep)."""
    receiver = func.value if isinstance(func, ast.Attribute) else None
    made = assigned_value(receiver.id, scope) if isinstance(receiver, ast.Name) else None
    cls = made.func.id if isinstance(made, ast.Call) and isinstance(made.func, ast.Name) else None
    return cls is not None and cls in facts.classes and not shadowed(scope, cls)


def _entered_method(found: "Function", facts: ModuleFacts) -> Optional[Scope]:
    """The entered scope of a method of a class of this file that a typed
    receiver's call reaches (``for run in self.runs: await run.kill()``), defined
    once, never replaced by a store of the attribute, and which no class of the
    file deriving from it may take from elsewhere; else None."""
    class_name, _, method = found.qualname.partition(".")
    cls = facts.classes.get(class_name)
    if cls is None or method not in cls.async_defs or method in cls.rebound:
        return None
    if assigned(facts, cls, method, set()) or _taken_below(facts, cls, method, mixins=True):
        return None
    entered = cls.entered_async.get(method, ())
    return entered[0] if len(entered) == 1 else None


def _returns_new_task(coroutine: Scope, summaries: "Summaries", facts: ModuleFacts) -> bool:
    """May a spawned coroutine that never waits, and whose every returned value
    that may be a task is a call with only names as arguments (``opaque_returns``
    false), return a new task, which only its done task would hold: asyncio's
    spawn, a local, a helper of the project that returns one?  Not the value of a
    call that makes none (``return collect(loop)``: healthwatch's ``_collect``, a
    false alarm of the twenty-ninth trial)."""
    return any(item is not None and not (
        isinstance(item, Spawn) and item.helper is not None and not summaries.spawner(item.helper, item)
    ) and not _filed(coroutine, item, facts) for item in coroutine.returns)


def _filed(coroutine: Scope, item: object, facts: ModuleFacts) -> bool:
    """Is a returned local bound once and put, on every path before the
    ``return``, into a strong collection of an object or of the module
    (``self.records[record.name] = record``), and only looked at or given
    attributes after that (not removed again: ``self.records.remove(record)``)?
    That keeps whatever it holds (praisonaiagents' background runner, a false
    alarm of the thirty-fifth trial's sweep: ``tests/data/trf001_one_step_returns.py``)."""
    if not isinstance(item, Use) or item.name in coroutine.declared:
        return False
    if len(coroutine.bindings.get(item.name, ())) != 1:
        return False
    uses = coroutine.uses.get(item.name, ())
    add = next((use for use in uses if use.kind == U_ADD and isinstance(use.target, CollectionAdd)
                and not use.frames and use.pos < item.pos and facts.added(use.target) == U_KEEP), None)
    return add is not None and all(use.kind == U_HARMLESS for use in uses if add.pos < use.pos < item.pos)


def quiet_lock(facts: ModuleFacts, attr: str) -> bool:
    """Does ``async with self.attr:`` never wait?  It waits only while another
    task holds the lock; so not if every store of the name in the file is a
    plain assignment of a new ``asyncio.Lock()`` (or semaphore of a positive
    count) or ``None``, every load of it is an ``async with`` of it (no ``as``),
    through any receiver, that holds it across no wait (no ``await``, ``async
    for``, ``async with``, ``yield`` in the block), nothing ``acquire()``s it
    and no method has its name: then nobody holds it when another task comes (a
    lock used by another module's code is not followed: docs/rules/TRF001.md)."""
    if attr not in facts.new_locks or attr in facts.waiting_locks:
        return False
    stores = sum(count for (_, name), count in facts.attr_stores.items() if name == attr)
    return (
        stores == facts.lock_stores.get(attr, 0)
        and facts.attr_loads.get(attr, 0) == facts.lock_items.get(attr, 0)
        and not any(attr in scope.defs for scope in facts.scopes if scope.kind == Scope.CLASS)
    )


def suspends_at(
    call: ast.Call, scope: Scope, facts: ModuleFacts, summaries: "Summaries", resolver: Optional["Resolver"],
) -> bool:
    """May ``await call`` in ``scope`` suspend the frame, so that a cancellation
    can come from there (``paths._caught``)?  Not when its coroutine is known
    never to suspend, nor when it is a coroutine function of this file that was
    not entered (the text shortcut left it cold: what it does is not known)."""
    owner, name = _owner(call.func, scope)
    if owner is not None and name in owner.async_defs and not owner.entered_async.get(name):
        return False
    return not never_suspends(call, scope, facts, summaries, resolver, set())


def quiet_entry(
    call: ast.Call, scope: Scope, facts: ModuleFacts, resolver: Optional["Resolver"],
) -> bool:
    """Does ``async with Cls(...):`` never suspend, entering or leaving: ``Cls`` a
    class of the project by its name (of this file, defined once at its top level,
    with no class decorator, or imported), whose ``__aenter__`` and ``__aexit__``,
    found in a method resolution order of classes of the project only, are
    coroutine functions, neither decorated nor stubs, with no ``await``, ``async
    for`` or ``async with`` in their bodies (emcache's ``OpTimeout``, which only
    arms a timer: a false alarm of the thirty-ninth trial)?  No cancellation can
    come from it, and what it raises is a callee's, as any call's: TRF007's wait
    before a ``try`` (``gaps.py``) leaves it out.  Not when the file stores either
    method on anything (``Cls.__aenter__ = other``, ``setattr``) or declares the
    class's name ``global`` in a function."""
    func = call.func
    if resolver is None or not isinstance(func, (ast.Name, ast.Attribute)):
        return False
    root = dotted_root(func)
    if not isinstance(root, ast.Name) or shadowed(scope, root.id) or root.id in _declared(facts):
        return False
    if any(name in _ENTRY_METHODS for _, name in facts.attr_stores):
        return False
    module = module_scope(scope)
    if isinstance(func, ast.Name) and func.id in facts.classes:  # (its own methods as entered)
        cls = facts.classes[func.id]
        if cls.parent is not module or func.id in module.rebound or getattr(cls.node, "decorator_list", True):
            return False
        for method in _ENTRY_METHODS:
            entered = cls.entered_async.get(method, ())
            body = entered[0] if len(entered) == 1 else None
            node = body.node if body is not None else None
            if body is None or not isinstance(node, ast.AsyncFunctionDef) or body.suspends or (
                    method in cls.rebound or node.decorator_list or _stub(node)):
                return False
        return True
    dotted = scope.imports.resolve(func) if root.id not in module.bindings else None  # (no import is)
    klass = resolver.klass(dotted) if dotted else None
    if klass is None or resolver.mro(klass) is None:
        return False  # (a class decorator, a metaclass, a base outside the project)
    for method in _ENTRY_METHODS:
        found = resolver.method(klass, method)
        whole = resolver.whole_function(found) if found is not None else None
        if whole is None or not whole.info.is_async or whole.info.decorated or whole.info.stub or (
                whole.info.suspends):
            return False
    return True


_ENTRY_METHODS = ("__aenter__", "__aexit__")


# How many coroutine functions a chain of awaits is followed through.
_DEPTH = 32


def _followed(func: ast.expr, scope: Scope, facts: ModuleFacts) -> bool:
    """May an awaited call's function be looked up as a spawn's is?  Not a name
    imported (``try: from fast import helper`` / ``except ImportError: async
    def helper()``, an import in the function) or bound through ``global``
    anywhere in the file; not a method through a ``self`` the method binds
    again, or in a function nested in a method (its ``self`` is another), or
    that a class of the file deriving from the class may take from elsewhere
    (it redefines or assigns it, or has another base first in its order)."""
    if isinstance(func, ast.Name):
        return scope.imports.resolve(func) is None and func.id not in _declared(facts)
    if not isinstance(func, ast.Attribute) or not isinstance(func.value, ast.Name):
        return True  # a receiver whose class is written down (or nothing known)
    name = func.value.id
    cls = scope.cls
    if name not in ("self", "cls") or cls is None:
        return True
    if scope.parent is not cls or len(scope.bindings.get(name, ())) > 1:
        return False
    return not _taken_below(facts, cls, func.attr, mixins=True)


def _declared(facts: ModuleFacts) -> Set[str]:
    """The names the file's scopes declare ``global`` or ``nonlocal`` (kept
    while no scope is entered: the plugin's path enters more later)."""
    count, names = facts.declared_globals
    if count != len(facts.scopes):
        names = {name for scope in facts.scopes for name in scope.declared}
        facts.declared_globals = (len(facts.scopes), names)
    return names


def _taken_below(facts: ModuleFacts, cls: Scope, attr: str, mixins: bool = False) -> bool:
    """Does a class of the file deriving from ``cls`` define or assign the
    method ``attr`` (with ``mixins``: or have more than one base, one of
    which may come first in its order and bring another)?"""
    return any(
        attr in sub.bindings or assigned(facts, sub, attr, set())
        or (mixins and isinstance(sub.node, ast.ClassDef) and len(sub.node.bases) > 1)
        for sub in _subclasses(facts, cls)
    )


def plain_call(
    call: ast.expr, scope: Scope, facts: ModuleFacts, summaries: "Summaries", resolver: Optional["Resolver"],
) -> bool:
    """Is ``call`` a call of a plain function (a ``def``, no decorator, no stub)
    of this file or of another module of the project, that returns no new
    task the analysis knows of: a function, a method of the class
    (``self.wait()``, which no other class of the file defines or assigns), of
    a receiver whose class is written down, or a name imported?  What it
    returns is no coroutine that ``ensure_future`` is known to wrap in a new
    task: a future (tornado's ``Condition.wait()``), returned unchanged, most
    often (docs/rules/TRF001.md, known problems)."""
    if not isinstance(call, ast.Call):
        return False
    func = call.func
    if isinstance(func, ast.Name):
        current: Optional[Scope] = scope
        while current is not None:
            if current.kind != Scope.CLASS and func.id in current.bindings:
                node = current.defs.get(func.id)
                if node is not None or current.kind == Scope.FUNCTION:
                    # (``global`` in a function: the plugin's path enters those that name it)
                    return (_plain_def(node, summaries) and func.id not in current.rebound
                            and len(current.bindings[func.id]) <= 1 and func.id not in _declared(facts))
                break  # a name the module binds otherwise: an import, looked up below
            current = current.parent
    if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id in _SELF:
        if len(scope.bindings.get(func.value.id, ())) > 1:
            return False  # ``self``/``cls`` bound again in the function
        cls = scope.cls
        if cls is not None and func.attr in cls.bindings:
            node = cls.defs.get(func.attr)
            return (_plain_def(node, summaries) and func.attr not in cls.rebound
                    and not _taken_below(facts, cls, func.attr)
                    and not assigned(facts, cls, func.attr, set()))
    if resolver is None:
        return False
    found = None
    dotted = scope.imports.resolve(func)
    if dotted is not None and dotted.partition(".")[0] not in N.STDLIB:
        found = resolver.function(dotted, scope.imports.module_of(func))
    elif isinstance(func, ast.Attribute) and dotted is None:
        found = summaries.receiver_method(scope, func.value, func.attr, loose=True)
    if found is None:
        return False
    info = found.info
    return not (info.is_async or info.decorated or info.stub or info.returns or info.or_none)


def _subclasses(facts: ModuleFacts, cls: Scope) -> List[Scope]:
    """The classes of this file that derive from ``cls``, at any depth (their
    methods or attributes may hide one of its methods)."""
    derived = facts.derived
    if derived is None:  # (the pass enters every class: made once)
        derived = facts.derived = {}
        for other in facts.classes.values():
            if other.klass is not None:
                for base in _own_bases(facts, other):
                    derived.setdefault(base, []).append(other)
    found: List[Scope] = []
    seen = {id(cls)}
    todo = [cls.node.name] if isinstance(cls.node, ast.ClassDef) else []
    while todo:
        for other in derived.get(todo.pop(), ()):
            if id(other) not in seen:
                seen.add(id(other))
                found.append(other)
                if isinstance(other.node, ast.ClassDef):
                    todo.append(other.node.name)
    return found


def _plain_def(node: Optional[ast.AST], summaries: "Summaries") -> bool:
    """A ``def`` with no decorator but ``staticmethod`` or ``classmethod``, no
    stub (a hook a subclass overrides), that returns no task: entered, no
    local of it holds one of asyncio's spawns (a ``gather`` among them), and it
    is no spawner (a function the text shortcut left cold holds no spawn at
    all)."""
    if not isinstance(node, ast.FunctionDef) or _stub(node) or not all(
            isinstance(decorator, ast.Name) and decorator.id in ("staticmethod", "classmethod")
            for decorator in node.decorator_list):
        return False
    entered = summaries.scope_of(node)
    return entered is None or not (
        any(isinstance(item, Spawn) and item.helper is None for item in entered.returns)
        or any(spawn.helper is None for group in entered.groups for spawn in group.spawns)
        or summaries.spawner_scope(entered) or returns_task_or_none(entered)) or _returns_kept_tasks(
            entered, summaries)


def _returns_kept_tasks(scope: Scope, summaries: "Summaries") -> bool:
    """Does every way out of the function return a local bound only to tasks it
    made itself, and keeps (it is no spawner: ``t = create_task(c); keep.add(t);
    return t``)?  ``ensure_future`` gives such a task back unchanged."""
    returns = scope.returns
    if not returns or may_return_none(scope) or summaries.spawner_scope(scope):
        return False
    for item in returns:
        bindings = scope.bindings.get(item.name, ()) if isinstance(item, Use) else ()
        if not bindings or any(binding.group is None or not binding.group.spawns or any(
                spawn.helper is not None for spawn in binding.group.spawns) for binding in bindings):
            return False
    return True


def spawned_coroutine(spawn: Spawn, scope: Scope, runs_first: bool = False) -> Optional[Scope]:
    """The entered scope of the coroutine function of this file whose call a
    spawn of one coroutine runs (``create_task(self._run())``), or a helper's
    call whose first argument its task runs (``runs_first``: ``spawn(self._run())``,
    ``Summaries.runs_first_argument``); None for anything else."""
    call = spawn.argument
    if spawn.helper is not None:
        args = spawn.helper.node.args
        call = args[0] if runs_first and args and isinstance(args[0], ast.Call) else None
    return own_coroutine(call.func, scope) if call is not None else None


def self_keepers(facts: ModuleFacts) -> Keepers:
    """The coroutine functions of the file that keep their own task: stored
    where it outlives them, or added to a collection of the module (one the
    module binds, not a local of a function around them, and not weak)."""
    return {
        (id(s.parent), s.node.name) for s in facts.scopes
        if (s.keeps_itself or any(_kept_by_module(facts, s, add) for add in s.keeps_in))
        and isinstance(s.node, ast.AsyncFunctionDef) and s.parent is not None
    }


def assigned(facts: ModuleFacts, cls: Scope, attr: str, seen: Set[int]) -> bool:
    """Does a method of the class, or of a base class of this file, assign
    ``self.<attr>`` (an instance attribute that may hide the method)?"""
    if id(cls) in seen or cls.klass is None:
        return False
    seen.add(id(cls))
    if attr in cls.klass.assigned:
        return True
    bases = (facts.classes.get(name) for name in _own_bases(facts, cls))
    return any(base is not None and assigned(facts, base, attr, seen) for base in bases)


def _own_bases(facts: ModuleFacts, cls: Scope) -> List[str]:
    """The names, in this file, of the bases of ``cls`` that this file defines."""
    prefixes = ("<module>.", f"{facts.name}.")
    bases = cls.klass.bases if cls.klass is not None else []
    return [base[len(p):] for base in bases for p in prefixes if base.startswith(p)]


def _kept_by_module(facts: ModuleFacts, scope: Scope, add: CollectionAdd) -> bool:
    """An add to a name that is no local of the coroutine: a collection of the
    module (bound at module level, or by a function that declares it
    ``global``) that is not weak, or a parameter of a function around it (a
    caller's collection); not a local of a function around it."""
    name = add.key[1]
    binder = enclosing_binder(scope, name)
    if binder is not None:
        return name in N.parameter_names(binder.node)  # a closure's own set dies with its function
    bound = name in facts.module.bindings or facts.bound_by_global(name)
    return bound and not facts.weak(add)


def keeps_itself(spawn: Spawn, scope: Scope, keepers: Keepers) -> bool:
    """Is the spawn's coroutine a call of a coroutine function of this file
    that keeps its own task (``keepers``)?"""
    call = spawn.argument
    if not keepers or call is None:
        return False
    owner, name = _owner(call.func, scope)
    return owner is not None and name not in owner.rebound and (id(owner), name) in keepers


def _loop_receiver(node: ast.expr, scope: Scope, options: Options) -> bool:
    """``loop``, ``self._loop`` (a name the options call a loop), or
    ``asyncio.get_running_loop()``."""
    if isinstance(node, ast.Call):
        return scope.imports.resolve(node.func) in N.LOOP_FACTORIES
    if isinstance(node, ast.Name):
        return node.id in options.loop_names or scope.holds_loop(node.id, options.loop_names)
    return isinstance(node, ast.Attribute) and node.attr in options.loop_names


def makes_coroutine(call: ast.Call, scope: Scope, options: Options) -> bool:
    """Does the call return a coroutine: a coroutine method of an event loop
    (``loop.create_connection(...)``), a coroutine function of asyncio, or a
    coroutine function of this file (bound once)?"""
    func = call.func
    if isinstance(func, ast.Attribute) and func.attr in N.LOOP_COROUTINE_METHODS:
        return _loop_receiver(func.value, scope, options)
    if scope.imports.resolve(func) in N.COROUTINE_FUNCTIONS:
        return True
    owner, name = _owner(func, scope)
    return owner is not None and name in owner.async_defs and name not in owner.rebound


def tests_current_task(branch: ast.AST, scope: Scope) -> bool:
    """``if me:``, ``if me is not None:`` or ``if (me := asyncio.current_task()):``
    with ``me`` the current task: inside a task it always is, so the branch runs
    on every path."""
    test = getattr(branch, "test", None)
    if isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], ast.IsNot):
        right = test.comparators[0]
        if isinstance(right, ast.Constant) and right.value is None:
            test = test.left
    if isinstance(test, ast.NamedExpr):
        test = test.value
    return isinstance(test, (ast.Name, ast.Call)) and is_current_task(test, scope)


def bound_to_coroutine(node: ast.expr, scope: Scope, frames: Frames = ()) -> bool:
    """Is ``node`` a local name of ``scope`` bound once (no function in it declares
    it ``nonlocal``), to a coroutine, or whose written type says it holds one (a
    parameter ``coro: Coroutine[Any, Any, T]``), under no ``if`` (``frames``) that
    asks what it holds (``if asyncio.isfuture(coro):``)?"""
    if not isinstance(node, ast.Name):
        return False
    bindings = scope.bindings.get(node.id, ())
    if len(bindings) != 1 or declared_inside(scope, node.id):
        return False
    group: Optional[Group] = bindings[0].group
    if group is not None and group.coroutine:
        return True
    return scope.types.get(node.id) in N.COROUTINE_TYPES and not N.tests_name(frames, node.id)


def bound_call(name: str, scope: Scope) -> Optional[ast.expr]:
    """What ``name`` is bound to a call of, when it is a local of ``scope`` bound
    once, by ``name = f(...)`` (nothing in it declares it ``nonlocal``):
    ``save_task = self.save(doc)`` before ``await asyncio.shield(save_task)``
    (jupyter-server-documents' autosave, a miss of the twenty-ninth trial)."""
    value = assigned_value(name, scope)
    return value.func if isinstance(value, ast.Call) else None


def coroutine_function(func: ast.expr, scope: Scope) -> bool:
    """Is ``func`` a coroutine function (its call makes a coroutine): asyncio's
    (``asyncio.sleep``), one the scope or a scope around it defines, a coroutine
    method of ``self``'s class, or a coroutine method of an asyncio primitive a
    local is (``queue.join()`` of ``queue: asyncio.Queue[bytes]`` or ``queue =
    asyncio.Queue()``, bound once: jupyter-nbmodel-client's ``shield(queue.join())``,
    a miss of the twenty-ninth trial; ``proc.wait()`` of ``proc = await
    asyncio.create_subprocess_exec(...)`` or ``proc: asyncio.subprocess.Process``: aio-fluid's,
    a miss of the thirty-second) or an attribute of ``self`` is written down as
    (``self._queue: asyncio.Queue``)?"""
    if scope.imports.resolve(func) in N.STDLIB_COROUTINE_FUNCTIONS:
        return True
    if isinstance(func, ast.Name):
        return _owner(func, scope)[0] is not None  # (a coroutine function of a scope around it)
    if not isinstance(func, ast.Attribute) or not isinstance(func.value, (ast.Name, ast.Attribute)):
        return False
    receiver = func.value
    if isinstance(receiver, ast.Name) and receiver.id in _SELF:
        return scope.cls is not None and func.attr in scope.cls.async_defs
    kind: Optional[str] = None
    if isinstance(receiver, ast.Name) and len(scope.bindings.get(receiver.id, ())) == 1:
        value = assigned_value(receiver.id, scope)
        made = value.func if isinstance(value, ast.Call) else None
        kind = scope.types.get(receiver.id) or (scope.imports.resolve(made) if made is not None else None)
        if kind is None and isinstance(value, ast.Await) and isinstance(value.value, ast.Call):
            # (``proc = await asyncio.create_subprocess_exec(...)``)
            kind = N.AWAITED_MAKERS.get(scope.imports.resolve(value.value.func) or "")
    elif isinstance(receiver, ast.Attribute) and isinstance(receiver.value, ast.Name) and (
            receiver.value.id == "self") and scope.cls is not None and scope.cls.klass is not None:
        kind = scope.cls.klass.types.get(receiver.attr)
    return func.attr in N.PRIMITIVE_COROUTINES.get(kind or "", ())


def cleared_by_itself(
    spawn: Spawn, attr: str, scope: Scope, keepers: Keepers,
) -> Optional[int]:
    """``self.attr = loop.create_task(self._run())`` where ``_run``, a coroutine
    method of this file's class, sets ``self.attr = None`` and then suspends on
    a path after it (a statement that awaits, an ``async for`` or ``async with``
    after the clear, in no other branch of an ``if``, before any ``return``
    (or in it: ``return await self.close()``),
    ``raise``, ``break`` or ``continue`` of the clear's own block; not in a
    handler of a ``try`` whose body holds the clear, for nothing after the clear
    need raise; or anywhere in a ``while True:`` loop around the clear that has
    no ``break``, when the clear's block ends in none of those or in ``continue``:
    its next pass): from the clear on, the attribute no longer holds the task
    while it waits, and nothing else does (unless the method keeps its own
    task).  The clear's line."""
    coro = spawn.argument
    if coro is None or not isinstance(coro.func, ast.Attribute):
        return None
    method = own_coroutine(coro.func, scope)
    if method is None or attr in scope.handed or (id(method.parent), coro.func.attr) in keepers:
        return None
    # ... or in a coroutine method of the class that it awaits (``await self.disconnect()``), and so on
    seen, todo = {id(method)}, [method]
    while todo and len(seen) <= _DEPTH:
        current = todo.pop()
        line = _clears_then_waits(current, attr)
        if line is not None:
            return line
        for call in current.waits_on:
            func = call.func
            callee = own_coroutine(func, current) if isinstance(func, ast.Attribute) else None
            if callee is not None and callee.cls is method.cls and id(callee) not in seen:
                seen.add(id(callee))
                todo.append(callee)
    return None


def _clears_then_waits(method: Scope, attr: str) -> Optional[int]:
    """The line where ``method`` clears ``self.attr`` and then waits (``cleared_by_itself``);
    not where ``self.attr.cancel()`` comes right before the clear: from inside the task,
    that cancels the task's next wait at once, and the loop's queue holds it until it ends."""
    cancelled = {pos_of(drop) for dropped, _, drop in method.cancel_drops if dropped == attr}
    for cleared, at, frames in method.clears:
        if cleared != attr or at in cancelled:
            continue
        # a way out in the clear's own block, after it, ends the path there
        own = [e.node for e in method.exits if pos_of(e.node) > at and e.frames == frames]
        first = min(own, key=pos_of) if own else None
        limit = pos_of(first) if first is not None else end_of(method.node)
        if any(  # (``return await self.close()``: the way out waits first)
            at < pause <= limit and not exclusive(frames, where) and not _handled_after(frames, where)
            for pause, where in method.pauses
        ):
            return at[0]
        if first is None or isinstance(first, ast.Continue):
            loop = _next_pass(method, frames, at)
            if loop is not None and any(pos_of(loop) < p <= end_of(loop) for p, _ in method.pauses):
                return at[0]
    return None


def _handled_after(clear: Frames, pause: Frames) -> bool:
    """Is the pause in a handler of a ``try`` whose body holds the clear?"""
    bodies = {id(node) for kind, node, part in clear if kind == TRY and part == TRY_BODY}
    return any(kind == TRY and part == TRY_HANDLERS and id(node) in bodies for kind, node, part in pause)


def _next_pass(method: Scope, frames: Frames, at: Pos) -> Optional[ast.While]:
    """The outermost ``while True:`` loop around a clear (at ``at``, in
    ``frames``) that goes on to its next pass and waits in it: no ``break`` of
    its own, no ``return`` after the clear (nor one whose way out runs the
    ``finally`` that holds it) or before the loop's first wait, no ``raise``
    but in a handler or in a ``try`` body whose handler names it."""
    for kind, node, _ in frames:
        if (
            kind == LOOP
            and isinstance(node, ast.While)
            and isinstance(node.test, ast.Constant)
            and node.test.value
        ):
            waits = [p for p, _ in method.pauses if pos_of(node) < p <= end_of(node)]
            if waits and not any(_leaves(e, node, frames, at, min(waits)) for e in method.exits):
                return node
    return None


def _leaves(exit: Exit, loop: ast.While, clear: Frames, at: Pos, first_wait: Pos) -> bool:
    """May the exit, inside ``loop``, end the path of the clear before the
    next pass's wait?"""
    if not any(frame[1] is loop for frame in exit.frames):
        return False
    where = pos_of(exit.node)
    if isinstance(exit.node, ast.Return):
        finals = {id(node) for kind, node, part in clear if kind == TRY and part == TRY_FINALLY}
        through = any(frame[1] is not loop and id(frame[1]) in finals for frame in exit.frames)
        return where > at or where < first_wait or through
    if isinstance(exit.node, ast.Break):
        return innermost_loop(exit.frames) is loop
    if isinstance(exit.node, ast.Raise):
        inside = exit.frames[[frame[1] for frame in exit.frames].index(loop) + 1:]  # the loop's own
        return not any(
            kind == TRY and (part == TRY_HANDLERS or (part == TRY_BODY and _caught(node, exit.node)))
            for kind, node, part in inside
        )
    return False


def _caught(attempt: ast.AST, raised: ast.Raise) -> bool:
    """Does a handler of the ``try`` name the class the ``raise`` raises (or every exception)?"""
    exc = raised.exc.func if isinstance(raised.exc, ast.Call) else raised.exc
    name = N.last_name(exc) if exc is not None else None
    names = _EVERY if name is None else _EVERY | {name}
    return any(N.catches(handler, names, unreadable=False) for handler in getattr(attempt, "handlers", ()))


_EVERY = frozenset({"Exception", "BaseException"})
