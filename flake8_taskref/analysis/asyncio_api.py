"""What each asyncio API does to a task handle: the knowledge half of the scope analysis (the
generic recording of bindings, uses and control flow is ``Recorder`` in ``scopes.py``; this
module's ``ScopeVisitor`` is that recorder with the hooks filled in, and it is what runs: one pass).

* how a call is classified: a spawn (``asyncio.create_task``, configured spawners, ``X.create_task``
  on an event loop, decided at the end), a spawner passed as a callable, ``gather``, ``shield``,
  ``wait``, ``wait_for`` and the configured timeouts, callback APIs (``add_done_callback``,
  ``call_soon``...), logging and formatting, adding to or pruning a task collection;
* what it does to a handle: the sink its arguments and result flow to;
* the facts only these APIs make: event loops (factories, annotations, aliases), loggers, timeout
  blocks, ``while not task.done()`` polls, task collections on ``self`` and at module level (TRF006).
"""
from __future__ import annotations

import ast
from typing import List, Optional, Sequence, Tuple, Union

from flake8_taskref.analysis import names as N
from flake8_taskref.analysis.facts import (
    BRANCH, DROP, FINISH, HARMLESS, KEEP, LOOP, SHIELDED, SUPPRESS, TRY, TRY_HANDLERS, TRUTH, U_ADD,
    U_FINISH, U_FLOW, U_HARMLESS, U_KEEP, U_RESULT, CallbackSink, CollectionAdd, FutureSpawn, GatherSite,
    Group, Pos, Scope, ShieldSite, Sink, Spawn, TimeoutSite, Use, WaitSite,
)
from flake8_taskref.analysis.lookups import (
    bound_value, called_with, is_current_task, lock_entry, polled_tasks, pops_all, returns_loop,
)
from flake8_taskref.analysis.messages import HOW_TIMED
from flake8_taskref.analysis.modules import View
from flake8_taskref.analysis.options import Options
from flake8_taskref.analysis.functions import SELF_NAMES, FunctionsRecorder
from flake8_taskref.analysis.exits import record_exits
from flake8_taskref.analysis.coroutines import bound_to_coroutine, makes_coroutine, tests_current_task
from flake8_taskref.analysis.copies import assigned, copied, is_copy, kept_by_owner
from flake8_taskref.analysis.scopes import FUNCTIONS, end_of, pos_of
from flake8_taskref.analysis.shortcut import HotLines

_DEFINITIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)  # (their headers)
_PLAIN_HANDLE_EXPRS = (ast.Name, ast.Attribute, ast.Subscript)
_PRUNING_AUGOPS = (ast.Sub, ast.BitAnd, ast.BitXor)
_ITEM_LOOKS = N.HARMLESS_TASK_METHODS - N.WAITING_FUTURE_METHODS  # (``result()`` may wait)
_WAIT_COROUTINES = frozenset({N.WAIT, N.WAIT_FOR})  # asyncio's waits that are coroutines: called, not awaited
_PASSING = N.CASTS | {"asyncio.ensure_future"}  # the value is an argument


class ScopeVisitor(FunctionsRecorder):
    """The scope visitor: ``Recorder`` (with the file's functions) plus what each asyncio API does."""

    def __init__(
        self, options: Options, hot: Optional[HotLines] = None, filename: Optional[str] = None,
        view: Optional[View] = None,
    ) -> None:
        super().__init__(options, hot, filename, view)
        self.spawners = N.TASK_SPAWNERS | options.spawners
        self.timeouts = options.timeouts
        # a local bound to a coroutine matters only to ``ensure_future`` of it,
        # which a file names to call (``Group.coroutine``; in NFKC, as Python
        # reads identifiers: a text that is not ASCII may spell it otherwise)
        self._coroutine_locals = hot is None or "ensure_future" in hot.text or not hot.text.isascii()
        record_exits(self)

    # ------------------------------------------------------------- statements
    def _unpack_call(self, elts: List[ast.expr], value: ast.expr, pos: Pos) -> bool:
        """``done, pending = await asyncio.wait(...)``: the pending set."""
        names = [elt.id for elt in elts if isinstance(elt, ast.Name)]
        if len(elts) == 2 and len(names) == 2 and isinstance(value, ast.Await) and isinstance(
                value.value, ast.Call) and self._qualname(value.value.func) == N.WAIT:
            done, pending_name = names
            pending = self._new_group(pending_name)
            self.value(value, pending)
            if self._refed(pending_name, value.value):
                # The bounded pool: ``done, pending = await asyncio.wait(pending, ...)`` in a
                # loop rebinds the name it waits on, and the next pass waits on them again.
                pending.events.append((U_FINISH, pos))
            if pending.wait is not None:
                pending.wait.done = done  # (``paths._done_tests``)
            self._bind(done, None, pos, True)
            self._bind(pending_name, pending, pos, True)
            return True
        return False

    def _note_annotation(self, target: ast.expr, annotation: ast.expr) -> None:
        super()._note_annotation(target, annotation)
        if N.is_loop_annotation(annotation):
            self._note_loop([target])

    def _note_parameter(self, name: str, annotation: ast.expr) -> None:
        super()._note_parameter(name, annotation)
        if N.is_loop_annotation(annotation):
            self.scope.loop_vars.add(name)

    def _note_aug_store(self, target: ast.expr, op: ast.operator) -> None:  # (``x += y``: ``_untyped``)
        """``self.tasks -= done`` prunes the collection."""
        if isinstance(target, ast.Name):
            self._untyped(target.id)
            return
        key = self._collection_key(target)
        if key is not None and isinstance(op, _PRUNING_AUGOPS):
            self.facts.pruned.add(key)

    def _context_sink(self, item: ast.withitem, node: ast.stmt) -> Sink:
        """``async with asyncio.timeout(...)`` (or one configured) makes a timeout block."""
        expr = item.context_expr
        if isinstance(expr, ast.Call):
            label = self._qualname(expr.func)
            if label is not None and self._in_function() and (
                (isinstance(node, ast.AsyncWith) and label in N.TIMEOUT_BLOCKS) or label in self.timeouts
            ):
                self.scope.timeouts.append(TimeoutSite(expr, label, end_of(node), self.frames, block=True))
                return KEEP
            if isinstance(node, ast.AsyncWith) and self._in_function() and self._maybe(label, N.BLOCK_NAMES):
                module = self.scope.imports.module_of(expr.func) or label
                self.scope.timeouts.append(
                    TimeoutSite(expr, label or "", end_of(node), self.frames, block=True, module=module))
                return KEEP
        if isinstance(node, ast.AsyncWith):  # ``__aenter__`` (not a task group's) and ``__aexit__`` may wait
            # (``async with self.lock:`` only while another holds it: ``exits._locking``; never
            # ``async with asyncio.Lock():``, which nobody else can hold: ``names.fresh_lock``)
            lock = lock_entry(item) is not None and self._in_function()
            label = self._qualname(expr.func) if isinstance(expr, ast.Call) else None
            if label in N.LOCK_FACTORIES and N.fresh_lock(expr):  # type: ignore[arg-type]
                return KEEP
            if label not in N.QUIET_ENTRIES:
                self._suspends(end_of(expr), not lock)
            self._suspends(end_of(node), not lock)
        return DROP if self._spawn_of(expr) is not None else KEEP

    def _suspends(self, end: Pos, waits: bool = True) -> None:
        """A suspension point (``async for``, ``async with``): the frame may wait, a timeout hit, there."""
        self.scope.suspends = True
        self.scope.may_wait = self.scope.may_wait or waits
        self.scope.wait_points += waits
        for site in self.scope.timeouts:
            if site.suspends is not None and pos_of(site.node) < end <= site.end:
                site.suspends.append(end)

    def _note_try(self, node: ast.stmt) -> None:
        """A ``try``'s handlers and ``finally`` in a timeout block run when it hits in its body."""
        start = pos_of(node)
        for site in self.scope.timeouts:
            if site.suspends is not None and pos_of(site.node) < start <= site.end:
                for handler in node.handlers:  # type: ignore[attr-defined]
                    site.guarded.append((pos_of(handler), end_of(handler)))
                final = node.finalbody  # type: ignore[attr-defined]
                if final:
                    site.guarded.append((pos_of(final[0]), end_of(final[-1])))

    def _attribute(self, node: ast.Attribute, sink: Sink) -> None:
        if isinstance(sink, Group):
            sink.opaque = True
        self.facts.attr_loads[node.attr] = self.facts.attr_loads.get(node.attr, 0) + 1  # (``quiet_lock``)
        if self._at_exit:
            key = self._collection_key(node)
            if key is not None:
                self.facts.read_at_exit.add(key)
        if node.attr in N.REMOVE_METHODS:
            self._prune(node.value)
        self.value(node.value, KEEP)

    def _is_loop_value(self, value: ast.expr) -> bool:
        """A loop factory's call, a name known to hold a loop, or a choice of them (``loop or
        get_running_loop()``, ``x if c else y``: a miss of the fortieth trial's sweep)."""
        if isinstance(value, (ast.IfExp, ast.BoolOp)):
            items = [value.body, value.orelse] if isinstance(value, ast.IfExp) else value.values
            either = isinstance(value, ast.IfExp) or isinstance(value.op, ast.Or)
            return either and all(map(self._is_loop_value, items))
        if isinstance(value, ast.Call):
            return self._qualname(value.func) in N.LOOP_FACTORIES or returns_loop(value, self.scope)
        names = self.scope.loop_vars
        return isinstance(value, ast.Name) and (value.id in names or value.id in self.options.loop_names)

    def _note_loop(self, targets: Sequence[ast.expr]) -> None:
        for target in targets:
            if isinstance(target, ast.Name):
                self.scope.loop_vars.add(target.id)
                if self.scope.kind == Scope.CLASS:  # a class attribute
                    self.facts.loop_attrs.add(target.id)
            elif isinstance(target, ast.Attribute):
                self.facts.loop_attrs.add(target.attr)
            klass = self._class_of(target)
            if klass is not None:  # for subclasses in other modules
                attr = target.id if isinstance(target, ast.Name) else getattr(target, "attr", "")
                klass.loop_attrs.add(attr)

    def _note_loop_factory(self, targets: Sequence[ast.expr], value: ast.expr) -> None:
        if len(targets) == 1 and isinstance(targets[0], ast.Name):
            if isinstance(value, (ast.Call, ast.Subscript)):
                self._note_local_type(targets[0], value)
            elif isinstance(value, ast.Attribute) and value.attr in N.LOOP_SPAWN_METHODS:
                self._note_bound_spawner(targets[0], value)
        self._note_spawner_attrs(targets, value)
        if self._is_loop_value(value):
            self._note_loop(targets)
        elif isinstance(value, ast.Name):
            # ``self.io = EV``: a loop if EV turns out to hold one (decided at the end).
            for target in targets:
                if isinstance(target, ast.Name):
                    self.scope.loop_aliases[target.id] = value.id
                elif isinstance(target, ast.Attribute):
                    self.facts.loop_attr_aliases.append((target.attr, value.id, self.scope))

    def _note_logger(self, targets: Sequence[ast.expr], value: ast.expr) -> None:
        """``log = logging.getLogger(...)`` at module level or in a class body."""
        if not (isinstance(value, ast.Call) and self.scope.imports.resolve(value.func) == N.GET_LOGGER):
            return
        for target in targets:
            if isinstance(target, ast.Name):
                kept = self.facts.logger_attrs if self.scope.kind == Scope.CLASS else self.facts.loggers
                kept.add(target.id)

    def _is_logger(self, node: ast.expr) -> bool:
        """The ``logging`` module, ``logging.getLogger(...)``, a module-level name
        bound to it (not rebound in this function), or ``self.log`` for a class
        attribute bound to it."""
        if isinstance(node, ast.Name):
            if node.id in self.facts.loggers and node.id not in self.scope.bindings:
                return True
            return self.scope.imports.resolve(node) == "logging"
        if isinstance(node, ast.Attribute):
            return (
                node.attr in self.facts.logger_attrs
                and isinstance(node.value, ast.Name)
                and node.value.id in SELF_NAMES
            )
        if isinstance(node, ast.Call):
            return self.scope.imports.resolve(node.func) == N.GET_LOGGER
        return False

    def _note_self_store(self, target: ast.expr, value: ast.expr) -> bool:
        """``self.x[k] = task`` adds to a long-lived collection (in a function,
        the value is visited here: kept, unless the collection turns out weak);
        ``self.x = ...`` outside ``__init__`` replaces it (which prunes it);
        ``self.x = weakref.WeakSet()`` and, at module level, ``name =
        weakref.WeakSet()`` make a weak collection; ``self.x = param`` may
        give the attribute a type."""
        self._note_attr_type(target, value)
        if self._in_function() and is_current_task(value, self.scope) and self._before_any_wait():
            self.scope.keeps_itself = True  # ``self._task = asyncio.current_task()``
        if isinstance(target, ast.Subscript):
            key = self._collection_key(target.value)
            if key is None:
                return False
            spawn = self._spawn_of(value)
            add = CollectionAdd(self.scope, key, N.dotted_text(target.value), target, spawn, None)
            self.facts.adds.append(add)
            if not self._in_function():
                if isinstance(value, ast.Name):
                    add.use = Use(value.id, pos_of(value), U_KEEP, None, self.frames)
                return False
            self._added(value, add, spawn)
            return True
        if isinstance(target, ast.Attribute):
            if self._is_weak_collection(value):
                key = self._collection_key(target) or (0, target.attr)
                weak = self.facts.weak_stores
                weak[key] = weak.get(key, 0) + 1
            self._note_replaced(target)
        elif isinstance(target, ast.Name) and self.scope.kind == Scope.MODULE and (
            self._is_weak_collection(value)
        ):
            self.facts.weak_names.add(target.id)
        elif isinstance(target, ast.Name) and self.scope.kind != Scope.FUNCTION and (
            isinstance(value, (ast.Set, ast.List, ast.Dict)) or isinstance(value, ast.Call)
            and N.strong_container(value.func, self.scope.imports.resolve(value.func), self.scope)
        ):
            self.facts.strong_names.add((id(self.scope), target.id))  # (``factories``)
        return False

    def _before_any_wait(self) -> bool:
        """Is the statement run on every path into the function (in no branch,
        loop or handler; a ``with`` block or a part of a ``try`` other than its
        handlers is fine), before it first waits?  Only then does its store hold
        the task from its first step."""
        return not self.scope.waited and all(
            kind == SUPPRESS or (kind == TRY and part != TRY_HANDLERS)
            or (kind == BRANCH and part == 0 and tests_current_task(node, self.scope))
            for kind, node, part in self.frames)

    def _with(self, node: ast.stmt) -> None:
        super()._with(node)
        if isinstance(node, ast.AsyncWith):
            self.scope.waited = True  # its ``__aexit__`` is behind

    def _for(self, node: ast.stmt) -> None:
        if isinstance(node, ast.AsyncFor):
            self.scope.waited = True
        super()._for(node)

    def _note_attr_store(self, target: ast.Attribute) -> None:
        key = self._collection_key(target) or (0, target.attr)
        stores = self.facts.attr_stores
        stores[key] = stores.get(key, 0) + 1

    def _is_weak_collection(self, value: ast.expr) -> bool:
        """``weakref.WeakSet()``, ``WeakValueDictionary()`` (any import spelling)."""
        return isinstance(value, ast.Call) and self.scope.imports.resolve(value.func) in N.WEAK_COLLECTIONS

    def _added(self, value: ast.expr, add: CollectionAdd, spawn: Optional[Spawn]) -> None:
        """The value ``add`` puts into a collection that outlives the frame: kept,
        unless the file shows the collection is weak (decided at the end)."""
        if spawn is not None:
            self._spawn(spawn, KEEP)
            if self._in_function():
                self.scope.weak_drops.append((spawn, add))
        elif isinstance(value, ast.Name):
            add.use = self._use(value.id, value, U_ADD, add)
        else:
            self.value(value, KEEP)

    def _note_replaced(self, target: ast.Attribute) -> None:
        key = self._collection_key(target)
        if key is not None:
            func = self.scope.node
            if not (isinstance(func, FUNCTIONS) and func.name in ("__init__", "__new__", "setUp")):
                self.facts.pruned.add(key)

    def _note_unpacked(self, target: Union[ast.Tuple, ast.List]) -> None:
        """``self.tasks, self.count = set(), 0`` replaces the collection too."""
        for elt in target.elts:
            if isinstance(elt, ast.Starred):
                elt = elt.value
            if isinstance(elt, (ast.Tuple, ast.List)):
                self._note_unpacked(elt)
            elif isinstance(elt, ast.Attribute):
                self._note_replaced(elt)

    def _refed(self, name: str, wait: ast.Call) -> bool:
        """Is ``name``, bound to a wait's pending set, the set a wait in a loop waits on (``pending``)?"""
        fs = wait.args[0] if wait.args else None
        return isinstance(fs, ast.Name) and fs.id == name and any(frame[0] == LOOP for frame in self.frames)

    def _poll(self, test: ast.expr) -> None:
        """``while not task.done():`` (or ``not tasks[0].done()``) keeps the frame until it is done."""
        for task in polled_tasks(test, items=True):
            self._use(task.id, task, U_FINISH, None)

    def _spawn_of(self, node: ast.expr) -> Optional[Spawn]:
        """A Spawn for ``node`` if it is a call that may create a task (its receiver attribute noted)."""
        if not isinstance(node, ast.Call):
            return None
        return self._call_spawn(node, self._qualname(node.func))

    def _call_spawn(self, node: ast.Call, qualname: Optional[str]) -> Optional[Spawn]:
        """A Spawn for a call whose callee resolves to ``qualname``, if it may create a task."""
        func = node.func
        if qualname is not None:
            if qualname in self.spawners and not self._rebound(func, False):  # (a parameter of its name)
                first = node.args[0] if node.args else None
                if qualname == "asyncio.ensure_future" and first is not None and (
                    isinstance(first, _PLAIN_HANDLE_EXPRS) or N.returns_future(first, self.scope.imports)
                ) and not (bound_to_coroutine(first, self.scope, self.frames)
                           or N.tested_awaitable(self.frames, first)):
                    if isinstance(first, ast.Name) and first.id in N.parameter_names(self.scope.node) and len(
                            self.scope.bindings.get(first.id, ())) == 1:  # (a new task if given a coroutine)
                        return FutureSpawn(node, qualname, None, self.frames)
                    return None  # an existing future: returned unchanged, no new task
                if qualname == N.THREADSAFE and len(node.args) < 2 and not node.keywords and not any(
                        isinstance(arg, ast.Starred) for arg in node.args):
                    return None  # no loop given: the call raises TypeError, no task exists
                return Spawn(node, qualname, None, self.frames)
            return None
        if isinstance(func, ast.Attribute) and func.attr in N.LOOP_SPAWN_METHODS:
            return self._loop_spawn(node, func.attr, func.value)
        method = self._bound_spawner(func) if self._bound_spawners and isinstance(func, ast.Name) else None
        return None if method is None else self._loop_spawn(node, method.attr, method.value)

    def _loop_spawn(self, node: ast.expr, method: str, receiver: ast.expr) -> Spawn:
        """``receiver.create_task(...)``: a spawn if the receiver is a loop, decided
        at the end (an attribute receiver not named as a loop by the options, by
        the names of the attributes the module makes loops)."""
        if isinstance(receiver, ast.Attribute) and receiver.attr not in self.options.loop_names:
            self.facts.receiver_attrs.add(receiver.attr)
        spawn = Spawn(node, method, receiver, self.frames)
        if isinstance(receiver, ast.Name) and receiver.id in SELF_NAMES:
            self._self_spawn(spawn, receiver)  # ``self.create_task = self.loop.create_task``
        return spawn

    def _spawn(self, spawn: Spawn, sink: Sink) -> None:
        """Where the handle of a new task goes, and its arguments."""
        self._put_spawn(spawn, sink)
        self._args(spawn.node, KEEP)  # type: ignore[arg-type]
        if spawn.receiver is not None:
            self.value(spawn.receiver, HARMLESS)

    def _args(self, node: ast.Call, sink: Sink, skip: int = -1, keywords: Sink = KEEP) -> None:
        for index, arg in enumerate(node.args):
            if index != skip:
                self.value(arg, sink)
        for keyword in node.keywords:
            self.value(keyword.value, keywords)

    def _call(self, node: ast.Call, sink: Sink) -> None:
        func = node.func
        if isinstance(sink, Group) and self._coroutine_locals and (
            makes_coroutine(node, self.scope, self.options)
        ):
            sink.coroutine = True
        qualname = self._qualname(func)
        spawn = self._call_spawn(node, qualname)
        if spawn is not None:
            self._spawn(spawn, sink)
            return
        if qualname is not None:
            index = 0 if qualname == "asyncio.ensure_future" else 1 if len(node.args) == 2 else len(node.args)
            if qualname in _PASSING and index < len(node.args) and not self._rebound(func):  # (cast(T, x))
                self._returning = node.args[index] if node is self._returning else self._returning
                self.value(node.args[index], sink)
                self._args(node, KEEP, skip=index)
                return
            if qualname == N.GATHER:
                self._gather(node, sink)
                return
            if qualname in N.LOOP_RUN_FUNCTIONS:
                self.scope.loop_runs.append((pos_of(node), self.frames))
            if qualname == N.SHIELD:
                self._shield(node, sink)
                return
            if sink == DROP and qualname in _WAIT_COROUTINES:
                # ``asyncio.wait([a, b])`` not awaited: a coroutine that never runs holds nothing
                self._args(node, HARMLESS, keywords=HARMLESS)
                return
            if qualname in N.WEAK_REFERENCES:  # a weak reference keeps nothing; it is no task itself
                if isinstance(sink, Group):
                    sink.opaque = True
                self._args(node, HARMLESS)
                return
            if self._remote_call(node, qualname, sink):
                return  # a function of another module of the project
        if isinstance(func, ast.Attribute):
            self._method_call(node, func, sink)
            return
        if qualname is None and self._same_file_call(node, sink):
            return
        generic = isinstance(func, ast.Subscript) and func.value
        if generic and N.strong_container(generic, self._qualname(generic), self.scope):
            self._args(node, sink if isinstance(sink, Group) else KEEP)  # list[asyncio.Task]() is list()
            return
        if isinstance(sink, Group) and not (
            isinstance(func, ast.Name)
            and (func.id in N.CONTAINER_FACTORIES or qualname in N.CONTAINER_FACTORIES)
        ):
            sink.opaque = True
        if isinstance(func, ast.Name):
            if qualname is None and func.id in N.HARMLESS_BUILTINS:
                self._args(node, HARMLESS)
                return
            if qualname is None and func.id in N.ATTRIBUTE_BUILTINS and node.args:
                self._note_setattr(node)  # (``setattr(self, "create_task", f)``)
                self.value(node.args[0], HARMLESS)  # an attribute of it: it is kept nowhere
                self._args(node, KEEP, skip=0)
                return
            if func.id in N.CONTAINER_FACTORIES or qualname in N.CONTAINER_FACTORIES:
                self._args(node, sink if isinstance(sink, Group) else KEEP)
                return
        self.value(func, KEEP)
        self._args(node, KEEP)

    def _method_call(self, node: ast.Call, func: ast.Attribute, sink: Sink) -> None:
        attr = func.attr
        receiver = func.value
        if isinstance(receiver, ast.Name) and receiver.id in SELF_NAMES and self._same_file_call(node, sink):
            return
        if attr == N.SET_TASK_FACTORY and not isinstance(self.stmt, _DEFINITIONS):  # (a header's: not seen)
            given = node.args[0] if len(node.args) == 1 and not node.keywords else node  # (else: not known)
            self.facts.task_factories.append((receiver, given, self.scope))
        if self._typed_call(node, func, sink):
            return
        if attr == "pop" and isinstance(sink, Group) and pops_all(node, receiver, self.scope):
            self._use(receiver.id, receiver, U_FLOW, sink)  # type: ignore[attr-defined]
            return  # (the local is the set's one task, followed as it)
        if isinstance(sink, Group):
            sink.opaque = True
        callback_index = N.CALLBACK_APIS.get(attr)
        has_callback = callback_index is not None and len(node.args) > callback_index
        if attr in N.HARMLESS_TASK_METHODS:
            inner = self._spawn_of(receiver)
            if inner is not None:
                if inner.callee == N.THREADSAFE and attr in N.WAITING_FUTURE_METHODS:
                    # run_coroutine_threadsafe(...).result(): waits for the task to end (a timeout drops it)
                    timed = N.timed_result(node)
                    inner.how = HOW_TIMED.format(attr=attr) if timed else inner.how
                    self._spawn(inner, DROP if timed else FINISH)
                    self._args(node, KEEP)
                    return
                inner.how = f" (only its .{attr}() is called)"
                self._spawn(inner, DROP)
                if has_callback:
                    self._callback_api(node, attr, callback_index, None)  # type: ignore[arg-type]
                else:
                    self._args(node, KEEP)
                return
            if isinstance(receiver, ast.Call) and self._qualname(receiver.func) == N.GATHER:
                # gather(...).add_done_callback(cb): only looked at, as a bare gather
                dropped = len(self.scope.drops)
                self._gather(receiver, DROP)
                for spawn in self.scope.drops[dropped:]:
                    spawn.how = f" (only its .{attr}() is called)"
                self._args(node, KEEP)
                return
        if has_callback:
            self._callback_api(node, attr, callback_index, receiver)  # type: ignore[arg-type]
            self._receiver(receiver, attr, node)
            return
        if (attr in N.LOG_METHODS and self._is_logger(receiver)) or (
            attr == "format" and isinstance(receiver, ast.Constant) and isinstance(receiver.value, str)
        ):
            # logger.info("%s", task), "{}".format(task): formatting keeps nothing
            self.value(receiver, HARMLESS)
            self._args(node, HARMLESS, keywords=HARMLESS)
            return
        if attr in N.ADD_METHODS:
            skip = 0 if attr in ("insert", "setdefault") and node.args else -1  # (``insert()`` raises)
            key = self._collection_key(receiver)
            if key is not None:
                self._collection_add(node, key, receiver, skip)
                return
            if isinstance(receiver, ast.Name):
                self._use(receiver.id, receiver, U_HARMLESS, None)
                if self._in_function() and receiver.id not in self.scope.bindings:
                    self._module_add(node, receiver.id, skip)
                    return
                if N.of_self_store(self.scope.bindings.get(receiver.id)) and any(  # ``t = self.tasks[key]``
                        is_current_task(arg, self.scope) for arg in node.args):
                    self.scope.keeps_itself = self.scope.keeps_itself or self._before_any_wait()
                self._args(node, receiver.id, skip)
                if skip == 0:
                    self.value(node.args[0], KEEP)
                return
        if attr in N.REMOVE_METHODS:
            self._prune(receiver)
        elif attr in N.LOOP_RUN_METHODS:
            self.scope.loop_runs.append((pos_of(node), self.frames))
        self._receiver(receiver, attr, node)
        self._args(node, KEEP)

    def _receiver(self, receiver: ast.expr, attr: str, node: ast.Call) -> None:
        if isinstance(receiver, ast.Name):
            if attr in N.FINISH_TASK_METHODS:
                kind = U_FINISH
                if self._in_function():
                    self.scope.cancels.add(pos_of(receiver))
            elif attr in N.WAITING_FUTURE_METHODS:
                kind = U_RESULT
            elif attr in N.HARMLESS_TASK_METHODS or attr in N.REMOVE_METHODS or attr in N.CALLBACK_APIS:
                kind = U_HARMLESS
            else:
                kind = U_KEEP
            self._use(receiver.id, receiver, kind, None)
        elif isinstance(receiver, ast.Subscript) and attr in _ITEM_LOOKS:
            self.value(receiver, HARMLESS)  # ``tasks[0].done()``: an item only looked at, as a name
        else:
            self.value(receiver, KEEP)

    def _callback_api(
        self, node: ast.Call, api: str, index: int, receiver: Optional[ast.expr]
    ) -> None:
        callback = node.args[index]
        if isinstance(callback, ast.Lambda):
            self._lambda(callback, CallbackSink(api))
        else:
            spawn = self._spawner_ref(callback)
            made = bound_value(self.scope, callback, self.frames)  # (a bound ``cb = partial(...)``)
            partial = None
            if spawn is None and isinstance(made, ast.Call) and made.args and (
                self.scope.imports.resolve(made.func) == N.PARTIAL
            ):  # functools.partial(asyncio.create_task, coro): the spawn runs later
                spawn, partial = self._spawner_ref(made.args[0]), made
                if spawn is not None and made is callback:
                    self._args(callback, KEEP, skip=0)
                elif spawn is not None and any(drop.node is spawn.node for drop in self.scope.drops):
                    spawn = None  # (the same partial, handed on again: one finding)
            if spawn is not None:
                spawn.how = f" (it is created in a callback of {api}(), which drops it)"
                spawn.coroutine = called_with(node, index, partial, api, 1 + (spawn.callee == N.THREADSAFE))
                self.scope.drops.append(spawn)
            elif (
                api == "add_done_callback"
                and isinstance(receiver, ast.Name)
                and isinstance(callback, ast.Attribute)
                and isinstance(callback.value, ast.Name)
            ):
                # t.add_done_callback(tasks.discard): the bound method keeps
                # ``tasks`` alive exactly as long as ``t`` lives.
                if callback.attr in N.REMOVE_METHODS:
                    self._prune(callback.value)
                elif callback.value.id in SELF_NAMES:
                    self._handed_helper(node, api, index, receiver)  # t.add_done_callback(self._restart)
                self._name_use(callback.value.id, callback.value, receiver.id)
            else:
                if api in N.LATER_APIS:
                    self._handed_helper(node, api, index, receiver)
                self.value(callback, KEEP)
        self._args(node, KEEP, skip=index)

    def _callback_spawn(self, arg: ast.expr) -> Optional[Spawn]:
        if isinstance(arg, ast.Lambda):
            body = arg.body
            return self._call_spawn(body, self._qualname(body.func)) if isinstance(body, ast.Call) else None
        if isinstance(arg, ast.Call) and arg.args and self.scope.imports.resolve(arg.func) == N.PARTIAL:
            return self._spawner_ref(arg.args[0])
        return self._spawner_ref(arg)

    def _spawner_ref(self, callback: ast.expr) -> Optional[Spawn]:
        """A Spawn for a spawner passed as a callable (``asyncio.create_task``,
        ``loop.create_task``): it creates a task when it is called."""
        qualname = self._qualname(callback)
        if qualname is not None:
            if qualname in self.spawners:
                return Spawn(callback, qualname, None, self.frames)
            return None
        if isinstance(callback, ast.Attribute) and callback.attr in N.LOOP_SPAWN_METHODS:
            return self._loop_spawn(callback, callback.attr, callback.value)
        return None

    def _collection_key(self, node: ast.expr) -> Optional[Tuple[int, str]]:
        """``self.tasks`` in a method -> (id of the class scope, 'tasks')."""
        if (
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and node.value.id in SELF_NAMES
            and self.scope.cls is not None
        ):
            return (id(self.scope.cls), node.attr)
        return None

    def _prune(self, node: ast.expr) -> None:
        if isinstance(node, ast.Name) and self._in_function():
            default = self._default_collection(node.id)
            if default is not None:
                node = default
        key = self._collection_key(node)
        if key is not None:
            self.facts.pruned.add(key)
        elif isinstance(node, ast.Attribute):
            self.facts.pruned_attrs.add(node.attr)
        elif isinstance(node, ast.Name):
            self.facts.module_prunes.add(node.id)

    def _drained(self, node: ast.expr) -> None:
        """The collection ``node`` (or a copy of it, also a filtered one, or a
        local bound only to such copies) is gathered or waited on as a whole: it
        finishes at a known point, and TRF006 takes it as pruned."""
        if not self.options.collections:
            return
        node = copied(node)
        if isinstance(node, ast.Name) and node.id in self.scope.bindings:
            # pending = [t for t in self.tasks if not t.done()]; gather(*pending)
            bindings = self.scope.bindings[node.id]
            values = [assigned(binding.stmt, node.id) for binding in bindings]
            sources = [None if value is None else copied(value) for value in values]
            first = sources[0] if sources else None
            if not isinstance(first, (ast.Attribute, ast.Name)) or any(
                source is None or N.dotted_text(source) != N.dotted_text(first) or not is_copy(binding.stmt)
                for source, binding in zip(sources, bindings)
            ):
                return
            node = first
        if isinstance(node, ast.Attribute) or (
            isinstance(node, ast.Name) and node.id not in self.scope.bindings
        ):
            self._prune(node)

    def _default_collection(self, name: str) -> Optional[ast.expr]:
        """``self.tasks`` where ``name`` is a parameter of the function being
        visited whose default value it is (``def done(t, _tasks=self._tasks)``)."""
        func = self.scope.node
        if not isinstance(func, FUNCTIONS):
            return None
        args = func.args
        positional = args.posonlyargs + args.args
        pairs = list(zip(positional[len(positional) - len(args.defaults):], args.defaults))
        pairs += [(arg, default) for arg, default in zip(args.kwonlyargs, args.kw_defaults) if default]
        for arg, default in pairs:
            if arg.arg == name and self._collection_key(default) is not None:
                return default
        return None

    def _collection_add(self, node: ast.Call, key: Tuple[int, str], receiver: ast.expr, skip: int) -> None:
        text = N.dotted_text(receiver)
        for index, arg in enumerate(node.args):
            if self._in_function() and is_current_task(arg, self.scope) and self._before_any_wait():
                self.scope.keeps_itself = True  # ``self._tasks.add(asyncio.current_task())``
            spawn = self._spawn_of(arg)
            add = CollectionAdd(self.scope, key, text, node, spawn, None)
            if index == skip:  # the index of ``insert``, the key of ``setdefault``
                if spawn is not None:
                    self._spawn(spawn, KEEP)
                elif isinstance(arg, ast.Name):
                    add.use = self._use(arg.id, arg, U_KEEP, None)
                else:
                    self.value(arg, KEEP)
            else:
                self._added(arg, add, spawn)
            self.facts.adds.append(add)
        for keyword in node.keywords:
            self.value(keyword.value, KEEP)

    def _module_add(self, node: ast.Call, name: str, skip: int) -> None:
        """``name.add(x)`` where ``name`` is not local: a module-level collection
        if the module binds it (decided at the end)."""
        for index, arg in enumerate(node.args):
            if index == skip:
                self.value(arg, KEEP)
                continue
            add = CollectionAdd(self.scope, (0, name), name, node, self._spawn_of(arg), None)
            if is_current_task(arg, self.scope) and self._before_any_wait():
                self.scope.keeps_in.append(add)  # ``_RUNNING.add(asyncio.current_task())``
            self._added(arg, add, add.spawn)
            self.scope.module_adds.append((name, add))
        for keyword in node.keywords:
            self.value(keyword.value, KEEP)

    def _gather(self, node: ast.Call, sink: Sink) -> None:
        if isinstance(sink, Group):
            group = sink
        else:
            group = self._new_group("") if self._in_function() else Group("")
        has_coroutine = False
        for arg in node.args:
            if isinstance(arg, ast.Starred):
                self._drained(arg.value)
            if isinstance(arg, ast.Starred) and not isinstance(arg.value, ast.Name):
                has_coroutine = True
                if isinstance(arg.value, ast.GeneratorExp):
                    self._comprehension(arg.value, KEEP, unpacked=True)
                else:
                    self.value(arg.value, KEEP)
            elif isinstance(arg, ast.Call) and self._new_future(arg):
                self.value(arg, KEEP)  # a plain future: nothing runs
            elif isinstance(arg, ast.Call) and self._spawn_of(arg) is None:
                has_coroutine = True
                # A shield's future is kept as long as the gather's future is.
                shield = self._qualname(arg.func) == N.SHIELD
                self.value(arg, group if shield else KEEP)
            else:
                self.value(arg, group)
        for keyword in node.keywords:
            self.value(keyword.value, KEEP)
        made = bool(group.spawns) and sink == FINISH  # awaited, with new tasks made in its arguments
        if sink == FINISH and self._in_function() and N.fails_fast(node):
            many = len(node.args) > 1 or any(isinstance(arg, ast.Starred) for arg in node.args)
            self.scope.gathers.append(GatherSite(node, group, end_of(node), self.frames, many))
        if has_coroutine:
            spawn = Spawn(node, N.GATHER, None, self.frames)
            if isinstance(sink, int) and sink in (DROP, TRUTH, HARMLESS):
                self.scope.drops.append(spawn)
                return
            if isinstance(sink, CallbackSink):
                spawn.how = f" (it is returned from a callback of {sink.api}(), which drops it)"
                self.scope.drops.append(spawn)
                return
            group.spawns.append(spawn)
        if made:  # they are done where the gather ends, after them (its own future: after its arguments)
            group.events.append((U_FINISH, end_of(node)))
        elif group is not sink:
            self._apply_sink(group, sink, node)

    def _new_future(self, node: ast.Call) -> bool:
        """``loop.create_future()`` or ``asyncio.Future()``: a plain future, which
        runs nothing (gathered, it is no coroutine wrapped in a task)."""
        func = node.func
        if isinstance(func, ast.Attribute) and func.attr == "create_future" and not node.args:
            return True
        return self.scope.imports.resolve(func) == "asyncio.Future"

    def _shield(self, node: ast.Call, sink: Sink = FINISH) -> None:
        """``asyncio.shield(arg)`` whose returned future goes to ``sink``: the
        future's done callback holds the inner task until the future is done, so
        a future that outlives the frame (stored, returned, passed on) keeps it."""
        if not node.args:
            self._args(node, KEEP)
            return
        outer: Optional[Group] = None
        if isinstance(sink, Group):
            outer = sink
        elif isinstance(sink, str) and self._in_function():
            outer = self._new_group(sink)
            outer.flows.append((sink, Use(sink, pos_of(node), U_FLOW, sink, self.frames)))
        kept = sink == KEEP and self._stored(node)
        arg = node.args[0]
        spawn = self._spawn_of(arg)
        site: Optional[ShieldSite] = None
        if spawn is not None:
            self._spawn(spawn, SHIELDED)
            site = ShieldSite(node, self.frames, spawn=spawn)
        elif isinstance(arg, ast.Name):
            use = self._use(arg.id, arg, U_KEEP if kept else U_FINISH, None)
            site = ShieldSite(node, self.frames, use=use)
        elif isinstance(arg, ast.Call):
            site = ShieldSite(node, self.frames, coro=arg.func)
            self.value(arg, KEEP)
        else:
            self.value(arg, KEEP)
        if site is not None and not kept:
            site.outer = outer
            self.scope.shields.append(site)
        self._args(node, KEEP, skip=0)

    def _stored(self, node: ast.expr) -> bool:
        """Is ``node`` the value the current statement stores where it outlives
        the frame: returned, assigned to an attribute, an item or a global, or
        added to a collection (not merely passed to a call: ``wait_for(x)``)?"""
        stmt = self.stmt
        if isinstance(stmt, (ast.Return, ast.Assign, ast.AnnAssign)):
            return stmt.value is node
        if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call):
            func = stmt.value.func
            return isinstance(func, ast.Attribute) and func.attr in N.ADD_METHODS and node in stmt.value.args
        return False

    def _await(self, node: ast.Await, sink: Sink) -> None:
        inner = node.value
        qualname = self._qualname(inner.func) if isinstance(inner, ast.Call) else None
        waits = self._waits(inner, qualname)
        self.scope.suspends = True
        self.scope.waited = True
        self.scope.may_wait = self.scope.may_wait or waits
        if self.scope.timeouts:
            self._suspends(end_of(node), waits)
        if isinstance(inner, ast.Call):
            if qualname == N.WAIT:
                self._wait(inner, sink)
                return
            maybe = self._maybe(qualname, N.WAIT_FOR_NAMES)
            if qualname == N.WAIT_FOR or maybe or (qualname is not None and qualname in self.timeouts):
                if self._in_function():
                    module = (self.scope.imports.module_of(inner.func) or qualname) if maybe else None
                    self.scope.timeouts.append(
                        TimeoutSite(inner, qualname or "", end_of(inner), self.frames, module=module))
                if inner.args:
                    self.value(inner.args[0], FINISH)
                    self._args(inner, KEEP, skip=0)
                else:
                    for keyword in inner.keywords:
                        self.value(keyword.value, FINISH if keyword.arg in ("fut", "aw") else KEEP)
                return
            if qualname == N.GATHER:
                if isinstance(sink, Group):
                    sink.opaque = True
                self._gather(inner, FINISH)
                return
        if isinstance(sink, Group):
            sink.opaque = True
        if isinstance(inner, ast.Call) and qualname == N.SHIELD:
            self._shield(inner)
            return
        if sink == DROP and isinstance(inner, ast.Call):
            # ``await helper()`` as a statement: a coroutine function of the
            # project may return a new task, dropped here (``_record_call``)
            self._awaited_call = inner
            self.value(inner, FINISH)
            self._awaited_call = None
            return
        self.value(inner, FINISH)

    def _waited_on(self, fs: ast.expr, pending: Group) -> None:
        """The awaitables of a wait that may return with some pending go into its
        pending set; in a display, an attribute or item beside them (a future an
        object keeps: ``[reader, self._closed]``) is kept by its owner and says
        nothing of the others."""
        if isinstance(fs, (ast.List, ast.Tuple, ast.Set)):
            for elt in fs.elts:
                self.value(elt, HARMLESS if kept_by_owner(elt) else pending)
            return
        self.value(fs, pending)

    def _wait(self, node: ast.Call, sink: Sink) -> None:
        """``await asyncio.wait(fs, ...)``: all done, unless a timeout or
        return_when lets it return with tasks pending."""
        may_pend = False
        for keyword in node.keywords:
            if keyword.arg == "timeout":
                may_pend = may_pend or not (
                    isinstance(keyword.value, ast.Constant) and keyword.value.value is None
                )
            elif keyword.arg == "return_when":
                text = N.last_name(keyword.value)
                may_pend = may_pend or text != "ALL_COMPLETED"
            self.value(keyword.value, KEEP)
        fs = node.args[0] if node.args else None
        if fs is not None:
            self._drained(fs)
        for extra in node.args[1:]:
            self.value(extra, KEEP)
        if fs is None:
            return
        if not may_pend or not self._in_function():
            self.value(fs, FINISH)
            return
        if isinstance(sink, Group):
            pending = sink
        else:
            pending = self._new_group("")
            self._apply_sink(pending, sink, node)
        self._waited_on(fs, pending)
        site = WaitSite(node, pending)
        pending.wait = site
        self.scope.waits.append(site)
