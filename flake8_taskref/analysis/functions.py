"""The functions of one file: which of them the pass enters, and the calls of
one by another.

``FunctionsRecorder`` is the generic ``Recorder`` plus two things that concern
the functions a file defines:

* **which functions are entered.**  Module- and class-level function bodies are
  visited once the module has been executed (``Recorder._function``).  With the
  text shortcut only those that can matter are entered: those whose text holds a
  word that can spawn, those that can make an attribute hold a loop, those that
  can prune a task collection (TRF006), and the functions whose summary a finding
  may depend on (below).  Entering more than needed is always safe; entering less
  would lose findings, which the shortcut must never do.
* **calls of the file's own functions** (``helper(x)``, ``self.helper(x)``):
  each is recorded as a ``CallSite``.  An argument that is a name becomes a use of
  kind ``U_CALL``, a new task passed straight in a ``call_drops`` entry, and the
  call itself a ``Spawn`` (with ``helper`` set) where its result goes somewhere
  that matters.  What the callee does with each parameter, and whether it returns
  a new task, is decided after the pass from the facts recorded for its body
  (``summaries.py``): one pass over the tree, nothing walked again.
"""
from __future__ import annotations

import ast
from typing import AbstractSet, Dict, FrozenSet, Iterator, List, Optional, Sequence, Set, Tuple

from flake8_taskref.analysis.facts import (
    DROP, FINISH, HARMLESS, KEEP, SHIELDED, TRUTH, TRY, TRY_BODY, TRY_HANDLERS, U_CALL, U_FLOW, U_KEEP,
    CallArg, CallbackArg, CallbackSink, CallSite, FunctionNode, Remote, Group, Scope, Sink, Spawn, Use,
)
from flake8_taskref.analysis.lookups import mapping_attr, may_add_task, values_key
from flake8_taskref.analysis import names as N
from flake8_taskref.analysis.cancelled import cancelled_coroutines, with_awaited
from flake8_taskref.analysis.messages import SpanError
from flake8_taskref.analysis.modules import View
from flake8_taskref.analysis.options import Options
from flake8_taskref.analysis.interface import SELF_NAMES, InterfaceRecorder

__all__ = ["SELF_NAMES", "FunctionsRecorder"]
from flake8_taskref.analysis.scopes import pos_of
from flake8_taskref.analysis.shortcut import HotLines, holds_word
from flake8_taskref.analysis.spawned import Spawned

# Arguments that can carry a task the analysis follows: a name, or a call (a spawn).
_CARRIERS = (ast.Name, ast.Call)
# Displays and comprehensions that make a new collection when they run (not a generator).
_DISPLAYS = (ast.List, ast.Tuple, ast.Set, ast.ListComp, ast.SetComp)
# how many steps ``_storers`` follows the functions that name one that stores
_DEPTH = 4
_Cold = Tuple[FunctionNode, Scope, int]


# The words of what may replace an ``async with`` class's methods (``coroutines.quiet_entry``).
_REPLACING_ENTRIES = ("__aenter__", "__aexit__", "setattr", "global")


class FunctionsRecorder(InterfaceRecorder):
    """``Recorder`` with what the module shows other modules
    (``interface.py``) and the file's functions: see the module docstring."""

    _returning: Optional[ast.expr] = None
    # With the text shortcut, the cold functions that only a question about one
    # spawn needs (does its coroutine ever wait? does it keep its own task?) are
    # put off: their answers can only take a finding away, so they are entered
    # (``enter_later``) only in a file where the rules report something.
    # (Set by the caller that runs the rules and calls ``enter_later``: ``api._analyse``.)
    put_off = False
    _later_names: FrozenSet[str] = frozenset()  # coroutine functions by name
    _cold_left: Sequence[_Cold] = ()
    _spawned: Optional[Spawned] = None
    # the call of ``await <call>`` as a statement, while it is visited (``asyncio_api._await``)
    _awaited_call: Optional[ast.Call] = None
    _task_attrs: FrozenSet[str] = frozenset()  # attributes of ``self.attr = spawn`` (TRF009)

    def __init__(
        self, options: Options, hot: Optional[HotLines] = None, filename: Optional[str] = None,
        view: Optional[View] = None,
    ) -> None:
        super().__init__(options, hot, filename, view)
        # ``_enter_awaited``: how many scopes it has read, and the names of the coroutines their waits call
        self._awaited_read = 0
        self._awaited_names: Set[str] = set()

    # ----------------------------------------------- hooks for ``asyncio_api``
    def _waits(self, inner: ast.expr, qualname: Optional[str]) -> bool:
        """Does ``await inner`` make the frame wait for more than a queue's put
        or the loop's next turn (``Scope.may_wait``)?  A call of a function the
        file or the project may define (``await self.flush()``) is noted in
        ``Scope.waits_on`` instead: the frame waits there only if its coroutine
        may (``coroutines.never_suspends``)."""
        if N.puts_into_queue(inner) or N.yields_once(inner, qualname):
            return False
        if isinstance(inner, ast.Call) and isinstance(inner.func, (ast.Name, ast.Attribute)) and (
            qualname is None or qualname.partition(".")[0] not in N.STDLIB
        ):
            self.scope.waits_on.append(inner)
            return False
        return True

    def _spawn_of(self, node: ast.expr) -> Optional[Spawn]:
        """A Spawn for ``node`` if it is a call that may create a task."""
        return None

    def _spawn(self, spawn: Spawn, sink: Sink) -> None:
        """Where the handle of a new task goes (and its arguments)."""
        self._put_spawn(spawn, sink)

    # ------------------------------------------------------------ new tasks
    def _put_spawn(self, spawn: Spawn, sink: Sink) -> None:
        """Put the handle of a new task where ``sink`` says."""
        if spawn.node is self._returning:
            self.scope.returns.append(spawn)
        if isinstance(sink, Group):
            sink.spawns.append(spawn)
        elif isinstance(sink, str):
            group = self._new_group(sink)
            group.spawns.append(spawn)
            group.flows.append((sink, Use(sink, spawn.pos, U_FLOW, sink, self.frames)))
        elif isinstance(sink, CallbackSink):
            spawn.how = f" (it is returned from a callback of {sink.api}(), which drops it)"
            self.scope.drops.append(spawn)
        elif sink == DROP or sink == TRUTH or sink == HARMLESS:
            self.scope.drops.append(spawn)
        elif sink == KEEP and self.scope.kind == Scope.FUNCTION:
            stmt = self.stmt  # ``self.attr = spawn``: see coroutines.cleared_by_itself
            alone = isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and stmt.value is spawn.node
            target = stmt.targets[0] if alone else None  # type: ignore[union-attr]
            if isinstance(stmt, ast.AnnAssign) and stmt.value is spawn.node:
                target = stmt.target  # ``self.attr: Task[None] = spawn``
            owner = target.value if isinstance(target, ast.Attribute) else None
            if isinstance(target, ast.Attribute) and isinstance(owner, ast.Name) and owner.id == "self":
                self.scope.self_stores.append((target.attr, spawn))
                self._task_attrs = self._task_attrs | {target.attr}

    def _return_value(self, value: ast.expr) -> None:
        """``return value``: noted for the function's summary (a new task?), then kept."""
        scope = self.scope
        if scope.kind != Scope.FUNCTION:
            self.value(value, KEEP)
            return
        if isinstance(value, ast.Name):  # (a new empty future: nothing a caller could lose, as ``None``)
            bound = [b.stmt if b.value is None else None for b in scope.bindings.get(value.id, ())]
            fresh = N.fresh_futures(value.id, bound, self._qualname)  # (a walrus: ``None``, not one)
            scope.returns.append(None if fresh else Use(value.id, pos_of(value), U_KEEP, None, self.frames))
            scope.inert_returns += fresh
            self.value(value, KEEP)
            return
        if isinstance(value, (ast.List, ast.Tuple)) and not value.elts:
            scope.returns.append(None)  # ``return []``: nothing a caller could lose, as ``None``
            scope.inert_returns += 1
            return
        if isinstance(value, _DISPLAYS):
            # ``return [asyncio.create_task(h(e)) for h in handlers]``: a new
            # collection, kept by the caller, of what flows into it
            group = self._new_group("")
            self.value(value, group)
            group.events.append((U_KEEP, pos_of(value)))
            scope.returns.append(group)
            return
        count = len(scope.returns)
        saved, self._returning = self._returning, value
        self.value(value, KEEP)
        self._returning = saved
        if len(scope.returns) == count:
            scope.returns.append(None)
            if N.holds_nothing_to_lose(value):
                scope.inert_returns += 1  # a helper that returns a task on some paths may say so

    # ----------------------------------------------- calls of the file's own
    def _same_file_call(self, node: ast.Call, sink: Sink) -> bool:
        """``helper(...)`` or ``self.helper(...)`` where the module (or the
        class) defines ``helper``: recorded for the end (True when handled)."""
        scope = self.scope
        if scope.kind != Scope.FUNCTION:
            return False
        func = node.func
        if sink == DROP and isinstance(func, ast.Name):
            scope.dropped_calls.add(func.id)  # ``hook(*args)``: what it returns is dropped
        if isinstance(func, ast.Name):
            owner: Optional[Scope] = self.facts.module
            name = func.id
        elif isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and (
            func.value.id in SELF_NAMES
        ):
            owner = scope.cls
            name = func.attr
        else:
            return False
        if owner is None:
            return False
        if name not in owner.defs and not (
            owner.klass is not None and any(owner.klass.bases)  # inherited, maybe from another module
        ):
            return False
        return self._record_call(node, name, owner, owner is not self.facts.module, sink, None)

    def _handed_helper(
        self, node: ast.Call, api: str, index: int, receiver: Optional[ast.expr] = None
    ) -> bool:
        """``loop.call_soon(helper, *args)`` (``call_soon_threadsafe``,
        ``call_later``, ``call_at``, ``add_reader``, ``add_writer``,
        ``add_signal_handler``): the loop calls ``helper(*args)`` later and
        drops what it returns; ``fut.add_done_callback(helper)`` calls
        ``helper(fut)`` and drops it.  ``helper`` a function of this file (``helper``,
        ``self.helper``) or a name imported from another module of the project is
        recorded as so called, its result dropped: whether it returns a new task
        that nothing keeps is decided at the end, as for a call (True when
        recorded; the callback and the arguments are the caller's to visit)."""
        scope = self.scope
        callback = node.args[index]
        if scope.kind != Scope.FUNCTION:
            return False
        qualname = self._qualname(callback)
        owner: Optional[Scope] = None
        remote: Optional[Remote] = None
        if qualname is not None:
            if qualname.partition(".")[0] in N.STDLIB:
                return False
            name = qualname.rpartition(".")[2]
            remote = Remote(dotted=qualname, module=scope.imports.module_of(callback))
        elif isinstance(callback, ast.Name):
            owner, name = self.facts.module, callback.id
        elif (
            isinstance(callback, ast.Attribute)
            and isinstance(callback.value, ast.Name)
            and callback.value.id in SELF_NAMES
        ):
            owner, name = scope.cls, callback.attr
        else:
            return False
        if remote is None and (owner is None or (name not in owner.defs and not (
            owner.klass is not None and any(owner.klass.bases)
        ))):
            return False
        if api == "add_done_callback":
            args = [] if receiver is None else [receiver]
        else:
            args = list(node.args[index + 1:])
        call = ast.Call(func=callback, args=args, keywords=[])
        ast.copy_location(call, callback)
        bound = owner is not None and owner is not self.facts.module
        site = CallSite(call, name, owner, bound, scope, remote)
        scope.calls.append(site)
        spawn = Spawn(callback, site.text, None, self.frames)
        spawn.helper = site
        spawn.how = f" (it is returned from a callback of {api}(), which drops it)"
        scope.drops.append(spawn)
        return True

    def _remote_call(self, node: ast.Call, qualname: str, sink: Sink) -> bool:
        """A call of a name the file imports from a module outside the standard
        library: maybe a function (or a class's method) of another module of the
        project, which the end looks up ("not known": its result opaque, its arguments kept)."""
        if self.scope.kind != Scope.FUNCTION or qualname.partition(".")[0] in N.STDLIB:
            return False
        module = self.scope.imports.module_of(node.func)
        name = qualname.rpartition(".")[2]
        return self._record_call(node, name, None, False, sink, Remote(dotted=qualname, module=module))

    def _typed_call(self, node: ast.Call, func: ast.Attribute, sink: Sink) -> bool:
        """``self.<attr>.method(...)`` or ``param.method(...)`` where the type of
        the attribute or parameter is written down (``worker: BaseWorker``): the
        method is looked up in that class at the end."""
        receiver = func.value
        scope = self.scope
        if scope.kind != Scope.FUNCTION or func.attr in N.NOT_TYPED_METHODS:
            return False
        if isinstance(receiver, ast.Name):
            if receiver.id not in scope.types:
                return False
            words = self.options.words
            if (id(scope), receiver.id) in self._local_types and words is not None and func.attr not in words:
                return False  # a local made by a class (``conn = Connection()``): its spawners only
        elif not (
            isinstance(receiver, ast.Attribute)
            and isinstance(receiver.value, ast.Name)
            and receiver.value.id in SELF_NAMES
            and scope.cls is not None
        ) and not (values_key(receiver) and scope.cls is not None):  # ``self.runners[key].start()``
            return False
        remote = Remote(receiver=receiver, method=func.attr)
        return self._record_call(node, func.attr, None, True, sink, remote)

    def _record_call(
        self, node: ast.Call, name: str, owner: Optional[Scope], bound: bool, sink: Sink,
        remote: Optional[Remote],
    ) -> bool:
        """Record a call of a function whose summary decides, at the end, what it does
        to its arguments and whether it returns a new task (True: handled here)."""
        scope = self.scope
        func = node.func
        args = node.args
        keywords = node.keywords
        awaited = node is self._awaited_call
        if awaited:  # ``await helper()`` as a statement: what the coroutine returns is dropped
            self._awaited_call = None
            sink = DROP
        # ``helper(coro, *args)``: which parameter each argument binds is not
        # known, so every argument is kept; what it returns is known all the same.
        starred = any(isinstance(arg, ast.Starred) for arg in args) or any(
            keyword.arg is None for keyword in keywords
        )
        result_kept = sink == FINISH or sink == SHIELDED or (sink == KEEP and node is not self._returning)
        if result_kept and (starred or (not any(isinstance(arg, _CARRIERS) for arg in args) and not any(
            isinstance(keyword.value, _CARRIERS) for keyword in keywords
        ))):
            return False  # nothing it is given or returns can be a task we follow
        call = CallSite(node, name, owner, bound, scope, remote)
        call.dropped = sink == DROP
        call.awaited = awaited
        scope.calls.append(call)
        self.value(func, KEEP)
        if starred:
            for arg in args:
                self.value(arg, KEEP)
            for keyword in keywords:
                self.value(keyword.value, KEEP)
        else:
            for index, arg in enumerate(args):
                self._call_arg(arg, CallArg(call, index, None))
            for keyword in keywords:
                self._call_arg(keyword.value, CallArg(call, -1, keyword.arg))
        if result_kept:
            return True  # awaited or kept: a new task it returns is not lost
        spawn = Spawn(node, ("await " if awaited else "") + call.text, None, self.frames)
        spawn.helper = call
        self._put_spawn(spawn, sink)
        return True

    def _call_arg(self, arg: ast.expr, where: CallArg) -> None:
        if isinstance(arg, ast.Name):
            where.call.names.append(arg.id)
            self._use(arg.id, arg, U_CALL, where)
            return
        spawn = self._spawn_of(arg)
        if spawn is not None:
            where.call.spawned = True
            spawn.how = f" (it is passed to {where.call.text}(), which does not keep it)"
            self.scope.call_drops.append((spawn, where))
            self._spawn(spawn, KEEP)
            return
        made = self._callback_spawn(arg)
        if made is not None:
            where.call.spawned = True
            made.how = f" (it is created in a callback of {where.call.text}(), which drops it)"
            self.scope.call_drops.append((made, CallbackArg(where.call, where.index, where.keyword)))
        self.value(arg, KEEP)

    def _expr_stmt(self, node: ast.Expr) -> None:
        """``[t.cancel() for t in tasks]`` as a statement is visited as ``for t in tasks:
        t.cancel()``, which cancels every task of the collection (TRF005, TRF007 see
        that loop's cancel, not a comprehension's: sphinx-autobuild's)."""
        comp = node.value
        if isinstance(comp, (ast.ListComp, ast.SetComp)) and len(comp.generators) == 1:
            gen, elt = comp.generators[0], comp.elt
            func = elt.func if isinstance(elt, ast.Call) and not elt.args and not elt.keywords else None
            if not gen.ifs and not gen.is_async and isinstance(gen.target, ast.Name) and (
                    isinstance(func, ast.Attribute) and func.attr == "cancel"
                    and isinstance(func.value, ast.Name) and func.value.id == gen.target.id):
                body: List[ast.stmt] = [ast.copy_location(ast.Expr(value=elt), elt)]
                loop = ast.For(target=gen.target, iter=gen.iter, body=body, orelse=[])
                self._stmt[ast.For](ast.copy_location(loop, node))
                return
        super()._expr_stmt(node)

    def _rebound(self, func: ast.expr, module: bool = True) -> bool:
        """Is ``func`` an imported name that the function or one around it binds again (a parameter
        ``cast``, a nested ``def``), or the module (an assignment, a ``def``, a ``class``; unless not
        ``module``: its aliases count)?  What it is then is not known: ``cast`` may keep a task."""
        scope: Optional[Scope] = self.scope
        while isinstance(func, ast.Name) and scope is not None and (module or scope.kind == Scope.FUNCTION):
            if scope.kind != Scope.CLASS and func.id in scope.bindings:
                return True
            scope = scope.parent
        return False

    def _callback_spawn(self, arg: ast.expr) -> Optional[Spawn]:
        """The spawn a callable argument makes when it is called: a lambda that
        returns a spawn, asyncio's spawner itself, or ``functools.partial`` of it
        (whether the callee drops it is decided at the end)."""
        return None

    # --------------------------------------------------- entering functions
    def _visit_deferred(self) -> None:
        """Enter the module- and class-level functions.  With the text shortcut,
        once the names the module makes hot are known (aliases of imported
        spawners and loop factories, added at the imports; loop variables and
        their aliases): first those whose text holds a word that can spawn; then,
        of the others, those that hold a loop word and name an attribute a loop
        spawn method was called on (all they can add is that such an attribute
        holds a loop); then, until none is left, the functions a summary needs
        and those that can prune a task collection."""
        self._module_done()
        hot = self.hot
        if hot is None:
            super()._visit_deferred()
            return
        pending, self._deferred = self._deferred, []
        loop_names = self.options.loop_names
        for scope in self.facts.scopes:
            if scope.kind != Scope.FUNCTION:
                # names that hold a loop, also through aliases (``ev = LOOP``)
                hot.add_words((), scope.loop_vars)
                hot.add_words((), [name for name in scope.loop_aliases if scope.holds_loop(name, loop_names)])
        spawning = hot.spawn_lines()
        rest = []
        for node, scope in pending:
            last = getattr(node, "end_lineno", None) or node.lineno
            if HotLines.between(spawning, node.lineno, last):
                self._enter_deferred(node, scope)
            else:
                rest.append((node, scope, last))
        # (``factories``: what the module shows, all of it; the name as Python reads it, ``ｓet_task_factory``)
        installing = hot.lines_naming((N.SET_TASK_FACTORY,)) if rest else []
        if installing:
            rest = self._enter_factories(installing, rest)
        cold: List[_Cold] = []
        receivers = hot.lines_holding(self.facts.receiver_attrs) if rest and self.facts.receiver_attrs else []
        for node, scope, last in rest:
            if HotLines.between(receivers, node.lineno, last) and hot.loop_between(node.lineno, last):
                self._enter_deferred(node, scope)
            else:
                cold.append((node, scope, last))
        self._later_names = frozenset()
        self._cold_left = self._enter_cold(hot, cold)

    def _enter_factories(self, lines: List[int], rest: List[_Cold]) -> List[_Cold]:
        """Enter the functions that may install a task factory (on ``lines``); if each
        one installs a factory named (which may keep every task), all of them: what
        stays cold."""
        left = []
        for node, scope, last in rest:
            if HotLines.between(lines, node.lineno, last):
                self._enter_deferred(node, scope)
            else:
                left.append((node, scope, last))
        installed = self.facts.task_factories
        if not installed or not all(isinstance(arg, ast.Name) for _, arg, _ in installed):
            return left
        for node, scope, _ in left:
            self._enter_deferred(node, scope)
        return []

    def _enter_cold(self, hot: HotLines, cold: List[_Cold]) -> List[_Cold]:
        """Enter the cold functions something entered so far needs; what stays cold."""
        weak = any(holds_word(hot.text, word) for word in N.WEAK_WORDS)
        # (a step, when no function was entered since it last looked, would choose what it chose then)
        looked: Dict[str, int] = {}

        def stale(step: str) -> bool:
            count, looked[step] = looked.get(step), len(self.facts.scopes)
            return count != looked[step]

        while cold:
            count = len(cold)
            cold = self._enter_helpers(hot, cold) if stale("helpers") else cold
            cold = self._enter_typed(hot, cold) if stale("typed") else cold
            cold = self._enter_spawned(hot, cold) if stale("spawned") else cold
            cold = self._enter_weak(hot, cold) if weak and stale("weak") else cold
            cold = self._enter_pruning(hot, cold) if self.options.collections and stale("pruning") else cold
            cold = self._enter_cancelled(hot, cold) if stale("cancelled") else cold
            cold = self._enter_awaited(cold) if stale("awaited") else cold
            if "__aenter__" in self._awaited_names and stale("entries"):  # (what may replace them)
                cold = self._enter_on(cold, hot.lines_naming(_REPLACING_ENTRIES))
            locks = {attr for scope in self.facts.scopes if not scope.may_wait for attr in scope.lock_entries}
            if locks and stale("locks"):  # ``coroutines.quiet_lock``: every other use of the lock
                cold = self._enter_on(cold, hot.lines_naming(locks))
            if self._self_spawns and stale("stores"):  # ``self.create_task(...)``: each store of it
                stores = hot.lines_storing(N.LOOP_SPAWN_METHODS) + hot.lines_holding(("setattr",))
                cold = self._enter_on(cold, sorted(stores))
            if len(cold) == count:
                break
        return cold

    def later_pending(self) -> bool:
        """Are there cold functions put off for ``enter_later``?"""
        return bool(self._cold_left and self._later_names)

    def later_needed(self, errors: Sequence[SpanError]) -> bool:
        """Could the functions put off take one of these findings away?  Only
        one about a spawn whose question was put off: a finding in the function
        (at module or class level) that holds the spawn, or any finding when
        the spawn's task may leave its function (returned; or with TRF006 on,
        whose findings lie elsewhere)."""
        seen = self._spawned
        if not errors or seen is None or not self.later_pending():
            return False
        cold = {item[0].name for item in self._cold_left if isinstance(item[0], ast.AsyncFunctionDef)}
        lines = sorted(error.lineno for error in errors)
        for name, _, scope in seen.put_off:
            if cold.isdisjoint(seen.reach(name)):
                continue  # its coroutine and those it awaits were entered, or are not this file's
            top: Optional[Scope] = scope
            leaves = self.options.collections
            while top is not None and top.kind == Scope.FUNCTION and not leaves:
                leaves = any(item is not None for item in top.returns)
                if top.parent is None or top.parent.kind != Scope.FUNCTION:
                    break
                top = top.parent
            if leaves or top is None or top.kind != Scope.FUNCTION:
                return True
            first = top.node.lineno  # type: ignore[attr-defined]
            if HotLines.between(lines, first, getattr(top.node, "end_lineno", None) or first):
                return True
        return False

    def put_off_spawns(self) -> List[Tuple[Spawn, Scope]]:
        """The spawns whose questions were put off, with their scopes."""
        seen = self._spawned
        return [] if seen is None else [(spawn, scope) for _, spawn, scope in seen.put_off]

    def enter_later(self) -> bool:
        """Enter the cold functions put off for the questions about single
        spawns (see ``put_off``), then what they need in turn, as the pass
        would have; False if none was entered (nothing changed)."""
        hot, cold = self.hot, self._cold_left
        if hot is None or not self.later_pending():
            return False
        self.put_off = False
        rest = self._enter_coroutines(cold, self._later_names)
        self._later_names = frozenset()
        if len(rest) == len(cold):
            self._cold_left = rest
            return False
        self._cold_left = self._enter_cold(hot, rest)
        return True

    def _enter_helpers(self, hot: HotLines, cold: List[_Cold]) -> List[_Cold]:
        """Enter the cold functions a summary may need: those called with a task
        (a new one, a local that holds one, or a parameter of a function so
        called, and so on), and those that name a function that may return a new
        task (their calls of it may drop it).  Functions are matched by name:
        entering one more than needed is harmless."""
        defined = [(scope, name) for scope in self.facts.scopes for name in [_defined_name(scope)] if name]
        # Functions that may return a new task: a spawn, or a call of one of them.
        spawners: Set[str] = set()
        grown = True
        while grown:
            grown = False
            for scope, name in defined:
                if name not in spawners and any(
                    _may_return_task(scope, item, spawners) for item in scope.returns
                ):
                    spawners.add(name)
                    grown = True
            # a function decorated by one of the file's that returns a wrapper
            # returning a new task (``@background``)
            wrapping = {name for scope, name in defined if _returns_spawning_wrapper(scope, spawners)}
            for scope in self.facts.scopes:
                if scope.kind == Scope.FUNCTION or not wrapping:
                    continue
                for name, node in scope.defs.items():
                    if name not in spawners and _decorator_name(node) in wrapping:
                        spawners.add(name)
                        grown = True
        needed: Set[str] = set()
        for scope in self.facts.scopes:
            for call in scope.calls:
                if call.spawned or any(_holds_spawn(scope, name, spawners) for name in call.names):
                    needed.add(call.name)
        grown = True
        while grown:  # parameters passed on, by the functions called with a task
            grown = False
            for scope, name in defined:
                if name not in needed:
                    continue
                for call in scope.calls:
                    if call.name not in needed and any(_is_parameter(scope, arg) for arg in call.names):
                        needed.add(call.name)
                        grown = True
        if not needed and not spawners:
            return cold
        lines = hot.lines_holding(spawners) if spawners else []
        rest = []
        for node, scope, last in cold:
            if node.name in needed or HotLines.between(lines, node.lineno, last):
                self._enter_deferred(node, scope)
            else:
                rest.append((node, scope, last))
        return rest

    def _enter_spawned(self, hot: HotLines, cold: List[_Cold]) -> List[_Cold]:
        """A task of a coroutine function that never suspends is never pending unkept,
        which ``rules._never_suspends`` asks of each spawn of one coroutine: enter the
        cold coroutine functions whose calls it is given, to see whether they suspend.
        In a file that names ``current_task``, a coroutine function may keep its own
        task (``coroutines.keeps_itself``): enter those whose calls any spawn is given.
        A method may be hidden by an instance attribute of its name (``self.hook =
        callback``): enter the cold functions that may store an attribute named as a
        method whose call a spawn is given.  (And ``coroutines.cleared_by_itself``.)"""
        seen = self._spawned_coroutines(hot)
        names: Set[str] = seen.names
        clearing, attrs, methods = seen.clearing, seen.attrs, seen.methods
        if self.put_off:
            self._later_names = self._later_names | names
            names = set()
        # ``coroutines.cleared_by_itself``: the coroutine of a task in ``self.attr`` that
        # stores the attribute, or names a method that does (which it may await: entered,
        # as those the ones entered await are)
        for scope in self.facts.scopes if clearing else ():
            if getattr(scope.node, "name", None) in clearing:
                clearing.update(N.last_name(call.func) or "" for call in scope.waits_on)
        storing = hot.lines_clearing(attrs) if clearing else []
        storers = self._storers(cold, storing) if storing else set()
        cold = cold if not (names or clearing) else [item for item in cold if not (
            isinstance(item[0], ast.AsyncFunctionDef)
            and (item[0].name in names or item[0].name in clearing and item[0].name in storers)
            and self._enter_one(item)
        )]
        # a coroutine that adds its own task to a name of the module, or a
        # function whose call ``ensure_future`` is given: a function may bind
        # the name (``global``), which ``coroutines.self_keepers`` and
        # ``coroutines.plain_call`` ask
        # (and the names of the coroutines awaited, ``coroutines._followed``)
        cold = self._enter_naming(hot, cold, seen.kept_in | seen.ensured | seen.awaited)
        return self._enter_on(cold, hot.lines_storing(methods)) if methods else cold

    def _storers(self, cold: List[_Cold], storing: List[int]) -> Set[str]:
        """The coroutine functions, cold or entered, that hold one of the lines ``storing``
        (the clears: only a coroutine's is followed), and those that name one of them, and
        so on (a few steps: their text only)."""
        nodes = [item[0] for item in cold if isinstance(item[0], ast.AsyncFunctionDef)]
        nodes += [scope.node for scope in self.facts.scopes if isinstance(scope.node, ast.AsyncFunctionDef)]
        found: Set[str] = set()
        for _ in range(_DEPTH):
            more = {node.name for node in nodes if node.name not in found and HotLines.between(
                storing, node.lineno, getattr(node, "end_lineno", None) or node.lineno)}
            if not more:
                break
            found |= more
            storing = self.hot.lines_holding(more) if self.hot is not None else []
        return found

    def _enter_cancelled(self, hot: HotLines, cold: List[_Cold]) -> List[_Cold]:
        """TRF009 asks of a task stored as ``self.attr = spawn(self.run())``
        whether a method cancels and drops it at once, and whether ``run`` waits
        in its cleanup (``cancels.py``): enter the cold functions that name such an
        attribute and ``cancel`` (on any of their lines: the call may be written over
        two); once one drops it, the coroutine methods whose tasks it holds, then the
        file's coroutines they await (whether those suspend); so for a local's task."""
        cold = self._enter_coroutines(cold, cancelled_coroutines(self.facts.scopes))
        if not self._task_attrs:
            return cold  # (``_task_attrs``: as each store of a spawn in ``self.attr`` is recorded)
        cancelling, naming = hot.lines_holding(("cancel",)), hot.lines_holding(self._task_attrs)
        cold = [item for item in cold if not (
            HotLines.between(cancelling, item[0].lineno, item[2])
            and HotLines.between(naming, item[0].lineno, item[2]) and self._enter_one(item)
        )]
        scopes = self.facts.scopes
        dropped = {attr for scope in scopes for attr, _, _ in scope.cancel_drops}
        if not dropped:
            return cold
        names: Set[str] = set()
        for scope in scopes:
            for attr, spawn in scope.self_stores:
                node = spawn.node
                coro = node.args[0] if attr in dropped and isinstance(node, ast.Call) and node.args else None
                if isinstance(coro, ast.Call) and isinstance(coro.func, ast.Attribute):
                    names.add(coro.func.attr)
        return self._enter_coroutines(cold, with_awaited(scopes, names))

    def _enter_awaited(self, cold: List[_Cold]) -> List[_Cold]:
        """TRF007 asks if a wait in a ``try`` with a handler of a cancellation, after a task
        is made, may suspend (``paths._caught``): enter the cold coroutines it calls, and theirs."""
        names = self._awaited_names
        scopes = self.facts.scopes
        for scope in scopes[self._awaited_read:]:  # (an entered scope is complete: each is read once)
            left = {id(f[1]) for exit in (scope.exits if scope.awaits else ()) for f in exit.frames
                    if f[:3:2] == (TRY, TRY_HANDLERS) and N.catches_cancellation(f[1], bool(scope.timeouts))}
            if scope.cleanups and scope.awaits and any(group.spawns for group in scope.groups):
                left |= {id(t) for t, _ in scope.cleanups if N.misses_cancellation(t)}
                if any(entry and call is not None and getattr(call.func, "id", None) in self.facts.classes
                       for _, _, _, _, call, entry in scope.awaits):  # (``coroutines.quiet_entry``)
                    names.update(("__aenter__", "__aexit__"))
            names.update(N.last_name(call.func) or "" for _, frames, _, _, call, _ in scope.awaits if left
                         and call is not None and any(f[2] == TRY_BODY and id(f[1]) in left for f in frames))
        self._awaited_read = len(scopes)
        for scope in scopes if names else ():
            if getattr(scope.node, "name", None) in names:
                names.update(N.last_name(call.func) or "" for call in scope.waits_on)
        return self._enter_coroutines(cold, names)

    def _enter_coroutines(self, cold: Sequence[_Cold], names: AbstractSet[str]) -> List[_Cold]:
        """Enter the cold coroutine functions of these names; the others stay cold."""
        if not names:
            return list(cold)
        return [item for item in cold if not (
            isinstance(item[0], ast.AsyncFunctionDef) and item[0].name in names and self._enter_one(item)
        )]

    def _enter_one(self, item: _Cold) -> bool:
        self._enter_deferred(item[0], item[1])
        return True

    def _enter_typed(self, hot: HotLines, cold: List[_Cold]) -> List[_Cold]:
        """A method of ``self.<attr>`` (``self._worker.cancel_group()``) is
        looked up in the class written down for the attribute, which any
        method may give it (``self._worker = worker`` with ``worker:
        BaseWorker`` in ``__init__``): enter the cold functions that name such
        an attribute, where the call can matter: it is handed a new task or a
        local that holds one, or its method is named as the project's spawners
        are (when the project's words are not known: as a method of a class of
        this file)."""
        names: Set[str] = set()
        words = self.options.words
        if words is None:
            words = frozenset(name for klass in self.facts.classes.values() for name in klass.defs)
        for scope in self.facts.scopes:
            for call in scope.calls:
                remote = call.remote
                if remote is None:
                    continue
                receiver = remote.receiver
                # (``runner = self.runners[key]``: the class of the mapping's values)
                attr = receiver.attr if isinstance(receiver, ast.Attribute) else mapping_attr(scope, receiver)
                if attr and (remote.method in words or call.spawned
                             or any(_holds_spawn(scope, name, set()) for name in call.names)):
                    names.add(attr)
            for site in scope.shields:
                coro = site.coro
                if isinstance(coro, ast.Attribute) and isinstance(coro.value, ast.Attribute):
                    names.add(coro.value.attr)
        cold = self._enter_naming(hot, cold, names)
        # a method of an attribute's class, spawned: does its coroutine ever
        # wait?  The class is what the stores of the attribute write down (two
        # classes make it unknown: a spawn reported again), entered at once
        typed = self._spawned_coroutines(hot).typed
        return self._enter_on(cold, hot.lines_storing(typed)) if typed else cold

    def _spawned_coroutines(self, hot: HotLines) -> Spawned:
        """What the spawns of one coroutine in the scopes entered so far ask
        about their coroutines (``_enter_spawned``, ``_enter_typed``): the
        scopes entered since the last call are added."""
        seen = self._spawned
        if seen is None:
            text = hot.text
            declares = holds_word(text, "global") or holds_word(text, "nonlocal")
            seen = self._spawned = Spawned(holds_word(text, "current_task"), declares)
        scopes = self.facts.scopes
        follow: List[str] = []
        for scope in scopes[seen.count:]:
            seen.kept_in.update(add.key[1] for add in scope.keeps_in)
            if scope.waits_on and not (scope.may_wait or scope.returns_value):  # (``never_suspends`` follows)
                defined = getattr(scope.node, "name", None)  # (nested functions too: by name)
                if defined is not None:
                    seen.awaits(defined, scope.waits_on)
                    follow.append(defined)
            for spawn, attr in _coroutine_spawns(scope, seen.every):
                func = spawn.runs.func  # type: ignore[union-attr]
                name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)
                if name is not None:
                    if spawn.callee == "asyncio.ensure_future" and isinstance(func, ast.Name):
                        seen.ensured.add(name)
                    if attr is None:
                        seen.names.add(name)
                        follow.append(name)
                        seen.put_off.append((name, spawn, scope))
                    else:  # ``cleared_by_itself`` needs it only if it stores ``self.attr``
                        seen.clearing.add(name)
                        seen.attrs.add(attr)
                if isinstance(func, ast.Attribute):
                    mapping = mapping_attr(scope, func.value)  # a mapping's value: the stores of the mapping
                    if mapping is not None:
                        seen.typed.add(mapping)
                    if isinstance(func.value, ast.Name):
                        seen.methods.add(func.attr)
                    elif isinstance(func.value, ast.Attribute) and (
                        spawn.runs_one_coroutine or spawn.helper is not None or attr is not None
                    ):
                        seen.typed.add(func.value.attr)
        seen.count = len(scopes)
        seen.follow(follow)
        return seen

    def _enter_weak(self, hot: HotLines, cold: List[_Cold]) -> List[_Cold]:
        """In a file that names a weak collection (``weakref.WeakSet``), whether a
        collection a task is added to is weak depends on every store of it (``self.tasks
        = weakref.WeakSet()`` in ``__init__``, ``global tasks``): each names the
        collection.  Enter the cold functions that name a collection something is added
        to (the adds of the functions entered so far; a helper entered later adds its own)."""
        names = {add.key[1] for add in self.facts.adds}
        for scope in self.facts.scopes:
            names.update(name for name, _ in scope.module_adds)
        return self._enter_naming(hot, cold, names)

    def _enter_pruning(self, hot: HotLines, cold: List[_Cold]) -> List[_Cold]:
        """A cold function can still prune a task collection for TRF006 (``self.tasks.discard``,
        ``del``, ``self.tasks = set()`` in ``reset()``, ``global tasks``) or drain it in
        ``__aexit__``: every such place names the collection.  Enter those that name a
        collection a task may have been added to (all such adds are in the functions
        entered so far: an add needs a spawn in its function)."""
        names = {add.key[1] for add in self.facts.adds if may_add_task(add)}
        for scope in self.facts.scopes:
            names.update(name for name, add in scope.module_adds if may_add_task(add))
        return self._enter_naming(hot, cold, names)

    def _enter_naming(self, hot: HotLines, cold: List[_Cold], names: Set[str]) -> List[_Cold]:
        """Enter the cold functions whose lines name one of ``names``; the others stay cold."""
        return self._enter_on(cold, hot.lines_holding(names)) if names else cold

    def _enter_on(self, cold: List[_Cold], lines: List[int]) -> List[_Cold]:
        """Enter the cold functions that span one of ``lines``; the others stay cold."""
        rest = []
        for node, scope, last in cold:
            if HotLines.between(lines, node.lineno, last):
                self._enter_deferred(node, scope)
            else:
                rest.append((node, scope, last))
        return rest


def _coroutine_spawns(scope: Scope, every: bool = False) -> Iterator[Tuple[Spawn, Optional[str]]]:
    """The spawns of one coroutine of a scope (``create_task(<call>)``,
    ``loop.create_task(<call>)``, ``run_coroutine_threadsafe(<call>, loop)``,
    returned ones too): whether the coroutine ever waits decides whether its
    task can be lost.  With ``every``, each spawn given a call: whether its
    coroutine keeps its own task.  And each spawn stored as ``self.attr = ...``:
    whether its coroutine clears the attribute (``coroutines.cleared_by_itself``),
    given with the attribute."""
    if not (scope.drops or scope.groups or scope.call_drops or scope.weak_drops or scope.returns
            or scope.self_stores):
        return
    spawns: List[Tuple[Spawn, Optional[str]]] = [(spawn, None) for spawn in scope.drops]
    spawns += [(spawn, None) for group in scope.groups for spawn in group.spawns]
    spawns += [(spawn, None) for spawn, _ in scope.call_drops]
    spawns += [(spawn, None) for spawn, _ in scope.weak_drops]
    spawns += [(item, None) for item in scope.returns if isinstance(item, Spawn)]
    spawns += [(spawn, attr) for attr, spawn in scope.self_stores]
    for spawn, attr in spawns:
        # (a helper's spawn: whether the helper runs its first argument is
        # decided at the end, ``Summaries.runs_first_argument``)
        if not (every or spawn.runs_one_coroutine or spawn.helper is not None or attr is not None):
            continue
        if spawn.runs is not None:
            yield spawn, attr


def _defined_name(scope: Scope) -> Optional[str]:
    """The name of a function defined at module or class level, as its module or
    class defines it; None for other scopes."""
    node = scope.node
    parent = scope.parent
    if scope.kind == Scope.FUNCTION and isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and (
        parent is not None and parent.kind != Scope.FUNCTION and parent.defs.get(node.name) is node
    ):
        return node.name
    return None


def _spawns(spawns: List[Spawn], spawners: Set[str]) -> bool:
    """Can one of these spawns make a task: a spawn, or a call of a function
    that may return one (named in ``spawners``)?"""
    return any(spawn.helper is None or spawn.helper.name in spawners for spawn in spawns)


def _holds_spawn(scope: Scope, name: str, spawners: Set[str]) -> bool:
    """Is ``name`` in ``scope`` a local bound to a group holding a spawn, or a
    collection a spawn is added to (``tasks.append(asyncio.create_task(c))``)?"""
    return any(
        b.group is not None and _spawns(b.group.spawns, spawners) for b in scope.bindings.get(name, ())
    ) or any(group.name == name and group.flows and _spawns(group.spawns, spawners) for group in scope.groups)


def _is_parameter(scope: Scope, name: str) -> bool:
    return any(b.pos == (0, 0) for b in scope.bindings.get(name, ()))


def _decorator_name(node: ast.AST) -> Optional[str]:
    """The name of a function's one decorator, when it is a bare name."""
    decorators: List[ast.expr] = getattr(node, "decorator_list", [])
    if len(decorators) == 1 and isinstance(decorators[0], ast.Name):
        return decorators[0].id
    return None


def _returns_spawning_wrapper(scope: Scope, spawners: Set[str]) -> bool:
    """Does every ``return`` of the function return a function it defines that
    may return a new task (a decorator that makes calls spawn)?"""
    if not scope.returns:
        return False
    for item in scope.returns:
        if not isinstance(item, Use):
            return False
        inner = [child for child in scope.children
                 if isinstance(child.node, ast.FunctionDef) and child.node.name == item.name]
        if len(inner) != 1 or not any(_may_return_task(inner[0], ret, spawners) for ret in inner[0].returns):
            return False
    return True


def _may_return_task(scope: Scope, item: object, spawners: Set[str]) -> bool:
    if isinstance(item, Spawn):
        return _spawns([item], spawners)
    if isinstance(item, Group):
        return _spawns(item.spawns, spawners)
    return isinstance(item, Use) and _holds_spawn(scope, item.name, spawners)
