"""The explicit ways out, recorded in the one pass (for ``paths.py`` and ``rules.py``).

``record_exits`` wraps the recorder's statement handlers: a ``return``, ``raise``,
``break`` or ``continue`` of a function is added to ``Scope.exits`` with the
statement context around it; a ``return`` marks every loop around it as left, a ``break`` the loop
it leaves (``Scope.loop_exits``: where each exit ends); a ``while True:`` at the
top of a function body (in nothing but ``suppress`` blocks) is a loop the frame
may never leave (``Scope.forever``); a ``try`` with a handler of every
``Exception`` that does not re-raise marks its function (``Scope.catches_all``:
the author kept the task from failing, TRF008); ``fut.result(timeout)`` under
no ``try`` is a timeout site of TRF003 (``Scope.timeouts``).  Nothing is decided here.
"""
from __future__ import annotations

import ast
from typing import Any, Callable, Dict, List, Optional, Set, Tuple, Type, Union

from flake8_taskref.analysis import names as N
from flake8_taskref.analysis.facts import (
    LOOP, SUPPRESS, TRY, TRY_BODY, TRY_FINALLY, TRY_HANDLERS, Exit, Frames, Scope, TimeoutSite, Wait,
    YieldExit,
)
from flake8_taskref.analysis.lookups import first_arguments, lock_entry, self_attribute
from flake8_taskref.analysis.cancelled import AFTER_CANCEL, cancels_before
from flake8_taskref.analysis.scopes import Recorder, end_of, pos_of

_EXITS = (ast.Return, ast.Raise, ast.Break, ast.Continue)
# the statements that may drop a local just cancelled (``_local_drop``): a way out, a store
_DROPS = frozenset({ast.Return, ast.Raise})
_STORES = frozenset({ast.Assign, ast.AnnAssign, ast.Delete})
_BROAD = frozenset({"Exception", "BaseException"})
_BROAD_OR_CANCEL = _BROAD | {"CancelledError"}
# the waits whose tasks run on when the wait is cancelled
_LETS_GO = frozenset({N.WAIT, N.SHIELD})
# the statements whose value ``_statements`` looks at (a timed wait, a clear, a suspension, a drop)
_PAUSES: Tuple[Type[ast.stmt], ...] = (
    ast.Expr, ast.Assign, ast.AugAssign, ast.AnnAssign, ast.Return, ast.AsyncWith, ast.AsyncFor, ast.Delete,
)


def record_exits(recorder: Recorder) -> None:
    """Record the explicit exits of functions as the recorder meets them."""
    table = recorder._stmt

    def recording(handler: Callable[[ast.stmt], None]) -> Callable[[ast.stmt], None]:
        def record(node: ast.stmt) -> None:
            scope = recorder.scope
            if isinstance(node, ast.Return):
                for frame in recorder.frames:
                    if frame[0] == LOOP:
                        scope.loop_exits.setdefault(id(frame[1]), []).append(end_of(node))
            elif isinstance(node, ast.Break):
                for frame in reversed(recorder.frames):
                    if frame[0] == LOOP:
                        scope.loop_exits.setdefault(id(frame[1]), []).append(end_of(node))
                        break
            if scope.kind == Scope.FUNCTION:
                scope.exits.append(Exit(node, recorder.frames))
                if scope.cancels and type(recorder.prev) in AFTER_CANCEL and type(node) in _DROPS:
                    _local_drop(scope, recorder, node)
            handler(node)
        return record

    for kind in _EXITS:
        table[kind] = recording(table.get(kind, recorder._generic))

    loop = table[ast.While]

    def forever(node: ast.stmt) -> None:
        test = getattr(node, "test", None)
        if (
            isinstance(node, ast.While)
            and all(frame[0] == SUPPRESS for frame in recorder.frames)
            and recorder.scope.kind == Scope.FUNCTION
            and isinstance(test, ast.Constant)
            and test.value
        ):
            recorder.scope.forever.append(node)
        loop(node)

    table[ast.While] = forever

    waits = recorder._expr[ast.Await]
    # the ``async with`` items a function's block holds (its scope, the item's text), and by
    # text the waits of such a condition in it (``cond.wait()``), which let its lock go
    holding: List[Tuple[int, str]] = []
    released: Dict[Tuple[int, str], int] = {}

    def waiting(node: ast.expr, sink: Any) -> None:
        """Any ``await`` in a ``try`` body of a coroutine function: the ``try``
        body suspends (``Scope.waiting_tries``, ``cancels.py``); a lock acquired
        by hand (``coroutines.quiet_lock``)."""
        scope = recorder.scope
        scope.wait_points += 1  # (``_locking``)
        if scope.kind == Scope.FUNCTION:
            for kind, attempt, part in recorder.frames:
                if kind == TRY and part == TRY_BODY:
                    scope.waiting_tries.add(id(attempt))
        call = node.value  # type: ignore[attr-defined]
        if type(call) is ast.Call and type(call.func) is ast.Attribute and call.func.attr == "acquire":
            lock = call.func.value
            if type(lock) is ast.Attribute:  # ``await x.lock.acquire()``: held by hand, maybe across a wait
                recorder.facts.waiting_locks.add(lock.attr)
        elif type(call) is ast.Call and holding:
            if call.args and scope.imports.resolve(call.func) == N.WAIT_FOR:
                call = call.args[0]  # (``await asyncio.wait_for(self.cond.wait(), t)``: the same)
            func = getattr(call, "func", None)
            held = func.value if type(func) is ast.Attribute and func.attr in _CONDITION_WAITS else None
            key = (id(scope), N.chain_text(held)) if isinstance(held, ast.Attribute) else None
            # ``await self.cond.wait()`` in its own block ("": a receiver of another form lets nothing go)
            if key is not None and key[1] and key in holding:
                _lock_use(recorder, held.attr)  # type: ignore[union-attr]
                released[key] = released.get(key, 0) + 1
        waits(node, sink)

    recorder._expr[ast.Await] = waiting

    for try_type in N.TRIES:  # ``try`` and ``try``/``except*``
        table[try_type] = _catching(recorder, table[try_type])

    for statement in _PAUSES:
        table[statement] = _statements(recorder, table.get(statement, recorder._generic))
    table[ast.AsyncWith] = _locking(recorder, table[ast.AsyncWith], holding, released)


def _locking(
    recorder: Recorder, handler: Callable[[ast.stmt], None], holding: List[Tuple[int, str]],
    released: Dict[Tuple[int, str], int],
) -> Callable[[ast.stmt], None]:
    """``async with self.lock:`` in a function: the lock is noted as entered
    (``Scope.lock_entries``), and as held across a wait if the block may wait or
    enters more (``ModuleFacts.waiting_locks``), through any receiver
    (``coroutines.quiet_lock``), but for the waits of the condition itself
    (``await self.cond.wait()`` lets its lock go while it waits, and takes it back
    before it returns: poethepoet's ``_update_condition``, a false alarm of the
    twenty-ninth trial); the entry is a wait for a lock held around it."""
    def entry(node: ast.stmt) -> None:
        scope = recorder.scope
        items = node.items  # type: ignore[attr-defined]
        locks = [item for item in items if isinstance(item.context_expr, ast.Attribute)]
        drops = len(scope.local_drops)
        if scope.kind != Scope.FUNCTION or not locks:
            handler(node)
            del scope.local_drops[drops:]  # (a drop in the block: its exit runs first, and may wait)
            return
        before = scope.wait_points
        keys = [(id(scope), N.chain_text(item.context_expr)) for item in locks]
        let_go = [released.get(key, 0) for key in keys]
        holding.extend(keys)
        handler(node)
        del holding[len(holding) - len(keys):]
        del scope.local_drops[drops:]
        facts = recorder.facts
        for item, key, count in zip(locks, keys, let_go):
            expr = item.context_expr
            _lock_use(recorder, expr.attr)
            waited = scope.wait_points - before - (released.get(key, 0) - count)
            if waited or item.optional_vars is not None or len(items) > 1:
                facts.waiting_locks.add(expr.attr)
            if lock_entry(item) is not None:
                scope.lock_entries.append(expr.attr)
        scope.wait_points += 1  # a lock's entry may wait, for a lock entered around it
    return entry


def _statements(recorder: Recorder, handler: Callable[[ast.stmt], None]) -> Callable[[ast.stmt], None]:
    """Note what the statements of functions say, before the recorder handles them:

    * ``fut.result(timeout)`` (or ``exception``) as a statement, under no ``try``
      or ``suppress`` of its function: a timeout there unwinds the frame with
      ``fut`` still pending, for the wait does not cancel it (a timeout site of
      TRF003 that does not finish what it waits on; in a ``try``, TRF007 follows
      the handler's exit);
    * ``self.attr = None`` in a coroutine function and, after such a clear, each
      statement that suspends; and, after ``self.attr = spawn``, the attributes
      a statement hands on: the task of a method that clears the attribute
      holding it, then waits, runs on held by nobody (``coroutines.cleared_by_itself``).
    """
    def record(node: ast.stmt) -> None:
        scope = recorder.scope
        node_type = type(node)
        value = getattr(node, "value", None)
        kind = type(value)
        if node_type is ast.Assign or node_type is ast.AnnAssign:
            target = node.targets[0] if node_type is ast.Assign else node.target  # type: ignore[attr-defined]
            if type(target) is ast.Attribute or scope.kind == Scope.CLASS and type(target) is ast.Name:
                _lock_store(recorder, node)  # type: ignore[arg-type]
        if kind is ast.Yield and _closable(scope) and any(  # (``paths.lost_on_exits``)
                frame[0] == LOOP for frame in recorder.frames):
            scope.yields.append(YieldExit(node, recorder.frames))
        if scope.kind != Scope.FUNCTION:
            handler(node)
            return
        if kind is ast.Call:
            func = value.func  # type: ignore[union-attr]
            if type(func) is ast.Attribute and func.attr in N.WAITING_FUTURE_METHODS:
                _timed_wait(recorder, scope, value)  # type: ignore[arg-type]
            elif type(func) is ast.Attribute and func.attr == "set" and scope.groups and not (
                    value.args or value.keywords):  # type: ignore[union-attr]
                event = N.chain_text(func.value)  # ``stopped.set()``, ``self._stop.set()``
                if event:  # (and does the block run only plain statements before it: ``lookups.woken``)
                    plain = all(_plain(statement) for statement in recorder.stmts[:recorder.at])
                    scope.event_sets.append((event, pos_of(node), recorder.frames, plain))
            elif type(func) is ast.Attribute and func.attr in _NOTIFY and type(func.value) is ast.Attribute:
                _lock_use(recorder, func.value.attr)  # ``self.cond.notify_all()``
            elif value.args:  # type: ignore[union-attr]
                # ``bool(fut.result(5))``, two calls deep as ``paths._timed_future`` (evaluated first)
                waits = N.WAITING_FUTURE_METHODS
                inner = next((call for call in first_arguments(value.args[0], 2)  # type: ignore[union-attr]
                              if type(call.func) is ast.Attribute and call.func.attr in waits), None)
                if inner is not None:
                    _timed_wait(recorder, scope, inner)
        elif kind is ast.Await or value is None and (node_type is ast.AsyncWith or node_type is ast.AsyncFor):
            frames = recorder.frames
            if node_type is ast.Expr and not frames and not scope.generator and N.never_returns(
                    value.value, scope.imports.resolve):  # type: ignore[union-attr]
                scope.forever.append(node)  # ``await server.serve_forever()``: as a ``while True:``
            wait = _wait_of(scope, node, value, frames) if scope.groups else None
            if wait is not None:  # a wait after a handle is made (``gaps.py``, ``paths._caught``)
                scope.awaits.append(wait)
            if (scope.clears or any(frame[0] == LOOP for frame in frames)) and not _holds(scope, value):
                # after a clear, or in a loop: its next pass (``coroutines.cleared_by_itself``)
                scope.pauses.append((pos_of(node), frames))
            if type(scope.node) is ast.AsyncFunctionDef:  # (at the top level too: ``cancels.py``)
                _cleanup_wait(scope, node, value, frames)
            awaited = self_attribute(getattr(value, "value", None)) if scope.self_stores else None
            if awaited is not None:  # ``await self.attr`` after a store (``cancels.py``)
                scope.awaited_attrs.append((awaited, pos_of(node), frames))
        if (scope.self_stores or scope.cls is not None) and (
            kind is ast.Call or node_type is ast.Assign or node_type is ast.Return
        ):
            _hand_on(scope, value if kind is ast.Call else None, value)
        if (
            kind is ast.Constant
            and value.value is None  # type: ignore[union-attr]
            and node_type is ast.Assign
            and type(scope.node) is ast.AsyncFunctionDef
            and len(node.targets) == 1  # type: ignore[attr-defined]
        ):
            cleared = self_attribute(node.targets[0])  # type: ignore[attr-defined]
            before = getattr(recorder.prev, "value", None)  # (``await self.attr`` right before: done)
            done = type(before) is ast.Await and self_attribute(before.value) == cleared
            if cleared is not None and not done:
                scope.clears.append((cleared, pos_of(node), recorder.frames))
        prev = recorder.prev
        if prev is not None:
            prev_type = type(prev)
            if prev_type in AFTER_CANCEL and node_type in _STORES and scope.cancels:  # (``t = None``)
                _local_drop(scope, recorder, node)
            last: Any = prev
            if prev_type is ast.If and not last.orelse:  # ``if self.attr: self.attr.cancel()``
                last = last.body[-1]
            if type(last) is ast.Expr and type(last.value) is ast.Call:
                _cancel_drop(scope, last, node)
        handler(node)
    return record


def _plain(statement: ast.stmt) -> bool:
    """A statement that goes on to the next one, but by an exception of a call
    (``writer.close()``, ``x = 1``): no ``await``, ``return``, ``raise``, block."""
    kind = type(statement)
    value = getattr(statement, "value", None)
    simple = kind in (ast.Expr, ast.Assign, ast.AugAssign, ast.AnnAssign, ast.Pass)
    return simple and type(value) is not ast.Await


def _hand_on(scope: Scope, call: Optional[ast.Call], value: object) -> None:
    """The attributes a statement hands on (``f(self.attr)``, ``return self.attr``,
    ``x = [self.attr]``): ``Scope.passed``, and after a store ``Scope.handed``."""
    handed = [*call.args, *(k.value for k in call.keywords)] if call is not None else [value]
    found: Set[str] = set()
    for item in handed:
        kind = type(item)
        if kind is ast.Attribute:
            attr = self_attribute(item)
            if attr is not None:
                found.add(attr)
        elif kind is ast.List or kind is ast.Tuple or kind is ast.Set:  # ``[self.attr]``, ``(t, self.attr)``
            elts: List[ast.expr] = item.elts  # type: ignore[attr-defined]
            scope.passed.update(a for a in map(self_attribute, elts) if a is not None)
    if found:
        if scope.self_stores:
            scope.handed.update(found)  # (not those in a display)
        scope.passed.update(found)


def _closable(scope: Scope) -> bool:
    """Is ``scope`` an async generator a consumer may close at a ``yield`` (one
    in a loop of it: a generator that yields once, outside any loop, is most
    often driven as a context manager, which a consumer does not stop early)?
    Not one a decorator turns into something else (``@asynccontextmanager``: its
    ``yield`` is left by the ``with`` block's end, or by the block's exception,
    a failure path the rules do not follow)."""
    node = scope.node
    return scope.kind == Scope.FUNCTION and isinstance(node, ast.AsyncFunctionDef) and not node.decorator_list


def _holds(scope: Scope, value: object) -> bool:
    """``await queue.put(item)``, ``await asyncio.sleep(0)``: a wait that holds
    the task (the queue keeps its putter, the loop's ready queue the task)."""
    call = value.value if isinstance(value, ast.Await) else None
    return isinstance(call, ast.Call) and (
        N.puts_into_queue(call) or N.yields_once(call, scope.imports.resolve(call.func)))


def _lock_store(recorder: Recorder, node: Union[ast.Assign, ast.AnnAssign]) -> None:
    """``x.lock = asyncio.Lock()`` (in a class body, ``lock = asyncio.Lock()``)
    gives a lock; any other value but ``None`` makes the name no known lock, as
    does a store in another form (``coroutines.quiet_lock`` counts them)."""
    targets = node.targets if type(node) is ast.Assign else [node.target]  # type: ignore[union-attr]
    if len(targets) != 1:
        return
    target, value = targets[0], node.value
    if type(target) is ast.Attribute:
        name = target.attr
    elif isinstance(target, ast.Name) and recorder.scope.kind == Scope.CLASS:
        name = target.id
    else:
        return
    facts = recorder.facts
    lock = isinstance(value, ast.Call) and _new_lock(value, recorder.scope)
    if lock or isinstance(value, ast.Constant) and value.value is None:
        if lock:
            facts.new_locks.add(name)
        if type(target) is ast.Attribute:
            facts.lock_stores[name] = facts.lock_stores.get(name, 0) + 1
    elif value is not None:
        facts.waiting_locks.add(name)


_CONDITION_WAITS = frozenset({"wait", "wait_for"})
_NOTIFY = frozenset({"notify", "notify_all"})


def _lock_use(recorder: Recorder, attr: str) -> None:
    """A use of the lock in ``self.attr``, for ``coroutines.quiet_lock``: an ``async
    with`` of it, or a load as a condition's own (``wait``, ``notify``; an
    ``asyncio.Event``'s ``wait()`` counts so too, and changes nothing: an event is
    no lock)."""
    recorder.facts.lock_items[attr] = recorder.facts.lock_items.get(attr, 0) + 1


def _new_lock(call: ast.Call, scope: Scope) -> bool:
    """``asyncio.Lock()``, ``asyncio.Condition()`` (of a lock of its own),
    ``asyncio.Semaphore()`` or ``Semaphore(n)`` of a positive number written out:
    free until someone takes it (not ``Semaphore(0)``, nor a count not known)."""
    if scope.imports.resolve(call.func) not in N.LOCK_FACTORIES or call.keywords or len(call.args) > 1:
        return False
    count = call.args[0] if call.args else None
    return count is None or (
        isinstance(count, ast.Constant) and type(count.value) is int and count.value > 0)


def _cleanup_wait(scope: Scope, node: ast.stmt, value: object, frames: Frames) -> None:
    """Note a statement of a coroutine function that suspends in a ``try``:
    the ``try`` bodies it is in suspend, and in a ``finally`` or ``except`` it
    is a wait of the function's cleanup (TRF009, ``cancels.py``); so is one at
    its top level after a loop that a cancellation breaks."""
    cleanup = False
    for kind, attempt, part in frames:
        if kind == TRY:
            if part == TRY_BODY:
                scope.waiting_tries.add(id(attempt))
            elif part == TRY_HANDLERS or part == TRY_FINALLY:
                cleanup = True
    if cleanup or not frames:
        call = value.value if isinstance(value, ast.Await) else None
        scope.cleanup_waits.append((pos_of(node), frames, call if isinstance(call, ast.Call) else None))


def _cancel_drop(scope: Scope, prev: ast.Expr, node: ast.stmt) -> None:
    """``self.attr.cancel()`` and, as the next statement, a store or ``del``
    of ``self.attr``: the attribute's task is dropped once cancelled (TRF009)."""
    func = prev.value.func  # type: ignore[attr-defined]
    if type(func) is not ast.Attribute or func.attr != "cancel":
        return
    attr = self_attribute(func.value)
    targets = getattr(node, "targets", None) or [getattr(node, "target", None)]
    if attr is not None and any(self_attribute(target) == attr for target in targets):
        scope.cancel_drops.append((attr, prev, node))


def _local_drop(scope: Scope, recorder: Recorder, node: ast.stmt) -> None:
    """A path that ends in ``name.cancel()`` (past statements it may run by
    without waiting) and, as the next statement, a ``return`` or ``raise`` (the
    frame may end) or a store or ``del`` of ``name``: the local's task is
    dropped once cancelled (TRF009)."""
    if isinstance(node, (ast.Delete, ast.Assign)):
        targets = node.targets
    elif isinstance(node, ast.AnnAssign):
        targets = [node.target] if node.value is not None else []  # (``task: Task`` binds nothing)
    else:
        targets = None  # a ``return`` or ``raise``
    for cancel, passed in cancels_before(recorder.stmts, recorder.at):  # (``at``: the index of ``node``)
        name = cancel.value.func.value.id  # type: ignore[attr-defined]
        if targets is None or any(type(target) is ast.Name and target.id == name for target in targets):
            scope.local_drops.append((cancel, node, recorder.frames, passed))


def _wait_of(scope: Scope, node: ast.stmt, value: object, frames: Frames) -> Optional[Wait]:
    """A statement that suspends: where it starts, its statement context, where
    its wait ends (the header of an ``async with`` or ``async for``), whether
    the wait lets what it waits on run on when it is cancelled (``asyncio.wait``,
    ``asyncio.shield``: their tasks are not cancelled with them), the call it
    awaits, and whether it is the entry of an ``async with`` (which may not
    suspend: a task group's, an exit stack's; ``paths._caught`` leaves them
    out).  None for the entry of ``asyncio.timeout()`` blocks, which never
    suspends (the waits in the block are statements of their own)."""
    call = value.value if isinstance(value, ast.Await) else None
    if isinstance(node, ast.AsyncWith):
        if all(isinstance(item.context_expr, ast.Call)
               and scope.imports.resolve(item.context_expr.func) in N.TIMEOUT_BLOCKS for item in node.items):
            return None
        expr = node.items[0].context_expr if len(node.items) == 1 else None  # (``gaps._first_wait``)
        entered = expr if isinstance(expr, ast.Call) else None
        return pos_of(node), frames, end_of(node.items[-1].context_expr), False, entered, True
    end = end_of(node.iter) if isinstance(node, ast.AsyncFor) else end_of(node)
    if not isinstance(call, ast.Call):
        return pos_of(node), frames, end, False, None, False
    return pos_of(node), frames, end, scope.imports.resolve(call.func) in _LETS_GO, call, False


def _timed_wait(recorder: Recorder, scope: Scope, call: ast.Call) -> None:
    func = call.func
    if (
        isinstance(func, ast.Attribute)
        and isinstance(func.value, ast.Name)
        and N.timed_result(call)
        and _passes_handlers(recorder.frames)
    ):
        label = f"{func.value.id}.{func.attr}"
        scope.timeouts.append(TimeoutSite(call, label, end_of(call), recorder.frames, waits_only=True))


def _passes_handlers(frames: Frames) -> bool:
    """Does a timeout raised here pass every handler around it: no ``suppress``,
    and each handler of a ``try`` whose body holds it names only builtin
    exceptions that are no base of ``TimeoutError`` (any other name may catch it:
    then the site is left to the paths, ``paths._timed_out``, or silent)?"""
    for kind, node, field in frames:
        if kind == SUPPRESS:
            return False
        if kind == TRY and field == TRY_BODY:
            for handler in getattr(node, "handlers", ()):
                caught = N.exception_names(handler.type)
                if caught is None or not caught <= N.NO_TIMEOUT_EXCEPTIONS:
                    return False
    return True


def _catching(recorder: Recorder, attempt: Callable[[ast.stmt], None]) -> Callable[[ast.stmt], None]:
    def catching(node: ast.stmt) -> None:
        scope = recorder.scope
        if scope.kind == Scope.FUNCTION:
            handlers = node.handlers  # type: ignore[attr-defined]
            if any(_swallows(handler) for handler in handlers):
                scope.catches_all = True
            finalbody = node.finalbody  # type: ignore[attr-defined]
            if finalbody or any(broad_handler(handler) for handler in handlers):
                scope.cleanups.append((node, recorder.frames))  # type: ignore[arg-type]
        attempt(node)
    return catching


def broad_handler(handler: ast.excepthandler) -> bool:
    """A handler of every exception a wait may raise (a bare one, ``BaseException``,
    ``Exception`` or ``CancelledError``)."""
    caught = N.exception_names(handler.type)  # type: ignore[attr-defined]
    return caught is None or bool(caught & _BROAD_OR_CANCEL)


def _swallows(handler: ast.excepthandler) -> bool:
    """A handler of every ``Exception`` (or a bare one) that does not end by raising."""
    caught = N.exception_names(handler.type)  # type: ignore[attr-defined]
    body = handler.body  # type: ignore[attr-defined]
    return (caught is None or bool(caught & _BROAD)) and not isinstance(body[-1], ast.Raise)
