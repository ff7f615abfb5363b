"""Questions asked of what the scope analysis recorded (``facts.py``): a local's
class or its one value, the tasks a loop test polls, the loop a statement is in,
whether two places are on exclusive paths.  Nothing here walks a tree or records."""
from __future__ import annotations

import ast
from typing import Dict, Iterator, List, Optional, Set, Tuple

from flake8_taskref.analysis import names as N
from flake8_taskref.analysis.scopes import end_of, pos_of
from flake8_taskref.analysis.facts import (
    BRANCH, LOOP, SUPPRESS, TRY, TRY_ELSE, TRY_FINALLY, TRY_HANDLERS, U_FINISH, CollectionAdd, Exit, Frames,
    FunctionNode, Pos, Scope, Spawn, Use, WaitSite,
)


# What gives one of a mapping's values: ``m[key]``, ``m.get(key)``, ``m.pop(key)``
# (with one argument: a default may be of another class), ``m.setdefault(key, value)``.
_VALUE_METHODS = {"get": 1, "pop": 1, "setdefault": 2}


def values_key(receiver: Optional[ast.expr]) -> Optional[str]:
    """``self.x[key]``, ``self.x.get(key)`` (or ``pop(key)``, ``setdefault``): the
    key under which ``ClassFacts.types`` holds the type of ``x``'s values,
    ``"x[]"`` (written down as ``dict[str, Station]``); None for anything else."""
    if isinstance(receiver, ast.Subscript):
        mapping = receiver.value
    elif (
        isinstance(receiver, ast.Call) and isinstance(receiver.func, ast.Attribute)
        and receiver.args and len(receiver.args) <= _VALUE_METHODS.get(receiver.func.attr, 0)
        and not receiver.keywords and not any(isinstance(arg, ast.Starred) for arg in receiver.args)
    ):
        mapping = receiver.func.value
    else:
        return None
    if isinstance(mapping, ast.Attribute) and isinstance(mapping.value, ast.Name) and (
        mapping.value.id == "self"
    ):
        return mapping.attr + "[]"
    return None


def bound_value(scope: "Scope", node: ast.expr, frames: Frames) -> ast.expr:
    """A local of a function bound once so far, by a plain assignment to it alone
    (``callback = partial(asyncio.create_task, coro)``) in a block that holds the place of
    ``frames`` (every path there passes it, in each pass of a loop around both): its value."""
    if not isinstance(node, ast.Name) or scope.kind != Scope.FUNCTION or node.id in scope.declared:
        return node
    bindings = scope.bindings.get(node.id, ())
    binding = bindings[0] if len(bindings) == 1 else None
    stmt = None if binding is None or frames[:len(binding.frames)] != binding.frames else binding.stmt
    if isinstance(stmt, ast.Assign) and [getattr(t, "id", None) for t in stmt.targets] == [node.id]:
        return stmt.value  # (its own assignment: not a walrus inside another's)
    return node


def assigned_value(name: str, scope: Scope) -> Optional[ast.expr]:
    """The value of ``name = value``, when that is the one binding of the local
    (its own assignment, not a walrus in another's) and nothing declares it
    ``nonlocal``."""
    bindings = scope.bindings.get(name, ())
    if len(bindings) != 1 or name in scope.declared or declared_inside(scope, name):
        return None
    stmt = bindings[0].stmt
    if isinstance(stmt, ast.Assign) and [getattr(target, "id", None) for target in stmt.targets] == [name]:
        return stmt.value
    return None


def shadowed(scope: Optional[Scope], name: str) -> bool:
    """Is ``name``, called in ``scope``, a name of a function scope around it
    (a local or a closure variable) rather than the module's?"""
    while scope is not None and scope.kind != Scope.MODULE:
        if scope.kind == Scope.FUNCTION and (name in scope.bindings or name in scope.declared):
            return True
        scope = scope.parent
    return False


def module_scope(scope: Scope) -> Scope:
    """The scope of the module ``scope`` is in."""
    while scope.parent is not None:
        scope = scope.parent
    return scope


def dotted_root(node: ast.expr) -> ast.expr:
    """The name a dotted expression starts with (``asyncio`` of ``asyncio.to_thread``)."""
    while isinstance(node, ast.Attribute):
        node = node.value
    return node


def declared_inside(scope: "Scope", name: str) -> bool:
    """Does a function (or class) in ``scope``, at any depth, declare ``name`` (``nonlocal``)?"""
    return any(name in child.declared or declared_inside(child, name) for child in scope.children)


def local_type(scope: "Scope", name: str) -> Optional[str]:
    """The class written down for a local or a parameter of a function
    (``scope.types``); for a value of a mapping attribute (``station = self.stations[host]``,
    ``"stations[]"``) or an element of a collection one (``for run in self.runs``, ``"runs*"``),
    looked up in the class when asked (the annotation may be in a method entered later)."""
    dotted = scope.types.get(name)
    if dotted is None or not dotted.endswith(("[]", "*")):
        return dotted
    return values_class(scope, dotted)


def values_class(scope: "Scope", key: str) -> Optional[str]:
    """The class of the values of a mapping attribute (``key``: ``"x[]"``, ``values_key``) or
    of the elements of a collection one (``"x*"``) of the class of the method ``scope``;
    None if it is not known or is the standard library's."""
    klass = scope.cls.klass if scope.cls is not None else None
    found = klass.types.get(key) if klass is not None else None
    return found if found and found.partition(".")[0] not in N.STDLIB else None


def mapping_attr(scope: "Scope", receiver: Optional[ast.expr]) -> Optional[str]:
    """The attribute ``x`` of whose values (or elements) ``receiver`` is one: ``self.x[key]``,
    ``self.x.get(key)``, or a local bound to one (``for run in self.x``, ``"x*"``)."""
    key = scope.types.get(receiver.id) if isinstance(receiver, ast.Name) else values_key(receiver)
    return key.rstrip("[]*") if key is not None and key.endswith(("[]", "*")) else None


def is_current_task(value: ast.expr, scope: Scope) -> bool:
    """``asyncio.current_task()`` (also through ``typing.cast``), or a local of ``scope``
    bound once, so far, to it (``me = asyncio.current_task()``, ``me: Task = ...``)."""
    if isinstance(value, ast.Name):
        bindings = scope.bindings.get(value.id, ())
        if len(bindings) != 1:
            return False
        stmt = bindings[0].stmt
        if bindings[0].value is not None:
            value = bindings[0].value
        elif isinstance(stmt, ast.Assign) or (isinstance(stmt, ast.AnnAssign) and stmt.value is not None):
            value = stmt.value  # type: ignore[assignment]
        else:
            return False
    value = N.uncast(value, scope.imports.resolve)
    return isinstance(value, ast.Call) and scope.imports.resolve(value.func) == N.CURRENT_TASK


def self_attribute(node: object) -> Optional[str]:
    """``attr`` of ``self.attr``."""
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "self":
        return node.attr
    return None


def lock_entry(item: ast.withitem) -> Optional[str]:
    """``lock`` of an ``async with self.lock:`` item (no ``as``): see ``exits._locking``."""
    return self_attribute(item.context_expr) if item.optional_vars is None else None


def polled_tasks(test: ast.expr, negated_only: bool = False, items: bool = False) -> List[ast.Name]:
    """The tasks ``t`` a loop test polls: ``not t.done()`` (or another poll method;
    also in ``not (t.done() and x)`` or ``not t.done() or x``, which end the loop only
    once ``t`` is done), and ``t.done()`` itself unless ``negated_only``; with
    ``items``, the local collection whose item ``not tasks[0].done()`` polls too."""
    if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.Or):
        return [t for v in test.values if isinstance(v, ast.UnaryOp) for t in polled_tasks(v, True, items)]
    negated = isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not)
    if negated:
        test = test.operand  # type: ignore[attr-defined]
        if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.And):
            return [t for v in test.values for t in polled_tasks(ast.UnaryOp(ast.Not(), v), True, items)]
    elif negated_only:
        return []
    func = test.func if isinstance(test, ast.Call) else None
    item = func.value if isinstance(func, ast.Attribute) and func.attr in N.POLL_METHODS else None
    if items and negated and isinstance(item, ast.Subscript) and isinstance(item.value, ast.Name):
        return [item.value]
    return [item] if isinstance(item, ast.Name) else []


_ONE_OR_OTHER = frozenset({TRY_HANDLERS, TRY_ELSE})


def innermost_loop(frames: Frames) -> Optional[ast.AST]:
    """The innermost loop of a statement context (the one its ``break`` leaves)."""
    for kind, node, _ in reversed(frames):
        if kind == LOOP:
            return node
    return None


def loop_span(frames: Frames, name: str, pos: Pos) -> Optional[Tuple[Pos, Pos]]:
    """Span of the innermost ``for`` binding ``name`` around ``pos`` in its body (seeing none outside)."""
    for kind, node, _ in reversed(frames):
        if kind == LOOP and isinstance(node, (ast.For, ast.AsyncFor)) and pos >= pos_of(node.body[0]):
            target = node.target
            if name in [t.id for t in getattr(target, "elts", [target]) if isinstance(t, ast.Name)]:
                return pos_of(node), (node.end_lineno or 0, node.end_col_offset or 0)
    return None


def called_with(
        call: ast.Call, index: int, partial: Optional[ast.Call], api: str, takes: int) -> Optional[ast.expr]:
    """The one coroutine a spawner handed on as a callable is called with: bound by a ``partial``
    (``partial(asyncio.create_task, c())``) or after it in a loop API that passes its extra arguments on
    (``call_soon(asyncio.ensure_future, c())``; ``takes`` 2: ``run_coroutine_threadsafe(c(), loop)``)."""
    if partial is not None:
        args = partial.args
        return args[1] if len(args) == 1 + takes and not partial.keywords and _plain(args[1]) else None
    if api == "add_done_callback" or len(call.args) != index + 1 + takes or any(
            keyword.arg is None for keyword in call.keywords) or not all(map(_plain, call.args[index + 1:])):
        return None  # (the future is its argument; or more, or unpacked ones)
    return call.args[index + 1] if _plain(call.args[index + 1]) else None


def _plain(node: ast.expr) -> bool:
    return not isinstance(node, ast.Starred)


def exclusive(a: Frames, b: Frames) -> bool:
    """Do the two places (their statement contexts) sit in different branches
    of one ``if``/``match``, or one in a handler of a ``try`` and the other in
    its ``else`` (which runs only when the body raised nothing)?  In a loop, a
    later pass may take the other part: not followed (a task made in one pass
    is often finished in it, or its handler leaves the loop), so silent."""
    branches = {id(f[1]): f[2] for f in a if f[0] == BRANCH or f[0] == TRY}
    for kind, node, part in b:
        other = branches.get(id(node), part)
        if kind == BRANCH and other != part:
            return True
        if kind == TRY and other != part and {other, part} == _ONE_OR_OTHER:
            return True
    return False


def may_add_task(add: CollectionAdd) -> bool:
    """Can this add put a task into its collection (as TRF006 decides it: a spawn
    as the argument, or a local bound to a group holding spawns)?"""
    if add.spawn is not None:
        return True
    if add.use is None:
        return False
    bindings = add.scope.bindings.get(add.use.name, ())
    return any(binding.group is not None and binding.group.spawns for binding in bindings)


def is_method(node: FunctionNode, scope: Scope) -> bool:
    """Is ``node`` (of ``scope``) a method whose first parameter is bound (not a static method)?"""
    parent = scope.parent
    return parent is not None and parent.kind == Scope.CLASS and not any(
        isinstance(d, ast.Name) and d.id == "staticmethod" for d in node.decorator_list
    )


def completion_loops(frames: Frames, scope: Scope) -> List[ast.expr]:
    """The iterables of the ``for x in asyncio.as_completed(...)`` loops around
    an exit: leaving one early leaves its other tasks pending."""
    found: List[ast.expr] = []
    for kind, node, _ in frames:
        if kind == LOOP and isinstance(node, (ast.For, ast.AsyncFor)) and isinstance(node.iter, ast.Call):
            if scope.imports.resolve(node.iter.func) == N.AS_COMPLETED:
                found.append(node.iter)
    return found


def element_uses(frames: Frames, names: Set[str], scope: Scope) -> Dict[Pos, Use]:
    """The uses of the target of each ``for t in tasks:`` loop around an exit, over a local
    that holds the task (bound to more than one), in the loop: a pass handles (or looks
    at) its own element only, and the exit leaves the others as they are.  None of a loop
    whose body binds its target again (``for t in tasks: t.cancel()`` inside it)."""
    found: Dict[Pos, Use] = {}
    for node in (f[1] for f in frames if f[0] == LOOP and isinstance(f[1], (ast.For, ast.AsyncFor))):
        over, target = node.iter, node.target
        if isinstance(over, ast.Name) and over.id in names and isinstance(target, ast.Name) and not any(
                isinstance(v, (ast.List, ast.Tuple, ast.Set)) and len(v.elts) == 1
                for v in (getattr(b.stmt, "value", None) for b in scope.bindings.get(over.id, ()))):
            start, stop = pos_of(node), end_of(node)
            if all(b.pos == pos_of(target) or not start <= b.pos <= stop for b in scope.bindings[target.id]):
                found.update((u.pos, u) for u in scope.uses.get(target.id, ()) if start <= u.pos <= stop)
    return found


def runs_nothing_after(attempt: ast.Try, pos: Pos) -> bool:
    """Does nothing of the body of ``attempt`` run after the statement there that holds
    ``pos``, short of leaving that body?  Each block from that statement outwards ends
    with it, or goes on only to a ``break`` out of a loop around it; no loop in the body
    around it takes another pass, no ``else`` or ``finally`` of a ``try`` in the body runs
    after it (the exit of a ``with`` is taken not to raise; an ``async with`` around it
    awaits at its exit, and is not followed).  Then a handler of
    ``attempt`` runs only when that statement, or one before it, raised."""
    path: List[Tuple[List[ast.stmt], int, str]] = []
    block, field = attempt.body, "body"
    while True:
        index = next((i for i, s in enumerate(block) if pos_of(s) <= pos <= end_of(s)), -1)
        if index < 0:
            return False
        path.append((block, index, field))
        if isinstance(block[index], ast.AsyncWith):
            return False  # (its exit awaits: a cancellation may land there)
        inner = _block_holding(block[index], pos)
        if inner is None:
            if any(isinstance(getattr(block[index], f, None), list) for f in ("body", "cases")):
                return False  # (in a compound statement's header: its blocks run after)
            break
        block, field = inner
    leaving = False  # a ``break`` on the way out, not yet past its loop
    for depth in range(len(path) - 1, -1, -1):
        block, index, _ = path[depth]
        statement = block[index]
        if depth < len(path) - 1:  # a compound statement the path comes out of
            part = path[depth + 1][2]
            if isinstance(statement, (ast.For, ast.AsyncFor, ast.While)) and part == "body":
                if not leaving:
                    return False  # (another pass)
                leaving = False  # (its ``else`` is skipped; what follows it runs)
            elif isinstance(statement, N.TRIES) and (
                    statement.finalbody and part != "finalbody" or part == "body" and statement.orelse
                    and not leaving):
                return False
        rest = block[index + 1:]
        if leaving or not rest:
            continue
        if not isinstance(rest[0], ast.Break):
            return False
        leaving = True
    return True


def _block_holding(statement: ast.stmt, pos: Pos) -> Optional[Tuple[List[ast.stmt], str]]:
    """The block of ``statement`` that holds ``pos`` (and its field), None for its header."""
    blocks: List[Tuple[List[ast.stmt], str]] = [
        (getattr(statement, field), field) for field in ("body", "orelse", "finalbody")
        if isinstance(getattr(statement, field, None), list)]
    blocks += [(handler.body, "handler") for handler in getattr(statement, "handlers", ())]
    blocks += [(case.body, "case") for case in getattr(statement, "cases", ())]
    for block, field in blocks:
        if block and pos_of(block[0]) <= pos <= end_of(block[-1]):
            return block, field
    return None


def awaited_by_body(node: ast.AST, frames: Frames, name: str, scope: Scope) -> bool:
    """Is ``node`` in a handler of a ``try`` whose whole body awaits the task ``name``
    (``return await task``, ``x = await task``), bound only before that ``try``?  The
    handler runs only once the task is done: the wait raised, and a cancelled wait on a
    task returns when the task does (but for a ``GeneratorExit`` of a closed coroutine,
    which a handler of it, or of ``BaseException``, would meet with the task pending)."""
    attempt = next((at for kind, at, part in reversed(frames) if kind == TRY and part == TRY_HANDLERS), None)
    body = getattr(attempt, "body", [])
    statement = body[0] if len(body) == 1 else None
    value = statement.value if isinstance(statement, (ast.Expr, ast.Return, ast.Assign)) else None
    if not (isinstance(value, ast.Await) and isinstance(value.value, ast.Name) and value.value.id == name):
        return False
    start, at = pos_of(attempt), pos_of(node)  # type: ignore[arg-type]
    handler = next((h for h in getattr(attempt, "handlers", ()) if pos_of(h) <= at <= end_of(h)), None)
    caught = N.exception_names(handler.type) if handler is not None else None
    return caught is not None and not caught & {"BaseException", "GeneratorExit"} and all(
        b.pos < start for b in scope.bindings.get(name, ())) and not declared_inside(scope, name)


def waits_for_event(call: Optional[ast.Call]) -> bool:
    """Does the task wait for an event (``stopped.wait()``, ``self._stop.wait()``)?
    Whoever cancels a function that waits on such a task most often sets the
    event first (``stop()``: ``self._stop.set()``, then ``self._task.cancel()``):
    the task is done in its next step, so it is not taken as left pending by a
    caught cancellation."""
    return (
        call is not None and not call.args and not call.keywords and isinstance(call.func, ast.Attribute)
        and call.func.attr == "wait" and isinstance(call.func.value, (ast.Name, ast.Attribute))
    )


def woken(spawn: Spawn, frames: Frames, at: Pos, scope: Scope) -> bool:
    """Does the way out at ``at`` (in ``frames``) set the event the task waits for
    (``stopped.wait()``, ``waits_for_event``): in a ``finally`` around the exit,
    after plain statements only, or after the spawn and before the exit in a
    block the exit is in (``Scope.event_sets``), the event's name bound before
    the spawn (not ``stopped = other`` after it)?  The waiter is woken there, and
    the loop's queue of ready callbacks holds its task until its next step ends it
    (asysocks' ``proxy_stream``, a false alarm of the thirty-sixth trial)."""
    if not scope.event_sets or not waits_for_event(spawn.runs):
        return False
    event = N.chain_text(spawn.runs.func.value)  # type: ignore[union-attr]
    if any(b.pos > spawn.pos for b in scope.bindings.get(event.partition(".")[0], ())):
        return False  # (the name may stand for another event at the set)
    for text, where, context, plain in scope.event_sets:
        if text != event:
            continue
        last = len(context) - 1
        if plain and last >= 0 and context[last][0] == TRY and context[last][2] == TRY_FINALLY and (
            len(frames) > last and frames[:last] == context[:last] and frames[last][1] is context[last][1]
        ):
            return True  # in the ``finally`` of a ``try`` the exit is in
        if spawn.pos < where < at and frames[:last + 1] == context:
            return True
    return False


def left_by_test_only(scope: Scope, loop: ast.While) -> bool:
    """Does no ``break`` of ``loop``, nor ``return`` or ``raise`` in it, leave it?"""
    start, end = pos_of(loop), end_of(loop)
    return not any(
        start <= pos_of(exit.node) <= end and not isinstance(exit.node, ast.Continue)
        and not (isinstance(exit.node, ast.Break) and innermost_loop(exit.frames) is not loop)
        for exit in scope.exits
    )


def breaks_when_empty(statement: ast.AST, name: str) -> bool:
    """Is ``statement`` ``if not name: break``?"""
    if not isinstance(statement, ast.If):
        return False
    test, body = statement.test, statement.body
    return (
        isinstance(test, ast.UnaryOp)
        and isinstance(test.op, ast.Not)
        and isinstance(test.operand, ast.Name)
        and test.operand.id == name
        and len(body) == 1
        and isinstance(body[0], ast.Break)
        and not statement.orelse
    )


def pops_all(node: ast.Call, receiver: ast.expr, scope: Scope) -> bool:
    """``task = pending.pop()`` where ``pending`` is the pending set of an
    ``asyncio.wait()`` of one awaitable (``wait([task], timeout=t)``): the
    element popped is all the set can hold, so handling it handles the set
    (arize-phoenix's ``_wait_for``, a false alarm of the thirty-seventh trial's
    sweep).  A wait of more leaves the others in the set."""
    if node.args or node.keywords or not isinstance(receiver, ast.Name) or scope.kind != Scope.FUNCTION:
        return False
    bindings = scope.bindings.get(receiver.id)
    pending = bindings[-1].group if bindings else None  # (bound last to the set, in this pass)
    site = pending.wait if pending is not None else None
    fs = site.node.args[0] if site is not None else None
    return isinstance(fs, (ast.List, ast.Tuple, ast.Set)) and len(fs.elts) == 1 and not isinstance(
        fs.elts[0], ast.Starred)


def first_arguments(value: object, depth: int) -> Iterator[ast.Call]:
    """``value`` and the calls it holds as first arguments, ``depth`` calls in
    all, outermost first (``bool(fut.result(5))``: ``bool(...)``, then
    ``fut.result(5)``, which is evaluated first)."""
    for _ in range(depth):
        if not isinstance(value, ast.Call):
            return
        yield value
        value = value.args[0] if value.args and not isinstance(value.args[0], ast.Starred) else None


# The exits that leave a loop around them for good (``pool_passes``; a ``break`` of that loop too).
LEAVING_LOOPS = (ast.Return, ast.Raise, ast.Break)


def pool_passes(exit: Exit, scope: Scope) -> Set[Pos]:
    """The places where a wait in a loop around the exit, before it in the same
    pass, rebinds the set it waits on (``done, pending = await asyncio.wait(pending,
    return_when=FIRST_COMPLETED)``): taken as finishing the tasks because the next
    pass waits on them again, which an exit that leaves the loop skips (a
    ``return`` or ``raise``, a ``break`` of that loop): the tasks still pending
    there are dropped (py-near's broadcast, which returns the first good answer
    with the other requests running: a miss of the fortieth trial).  Only a wait
    that is a statement of the loop's body, with no ``if pending: continue`` among
    the statements from it to the exit (the exit then meets an empty set); and for
    a ``break``, no loop around that loop (its next pass may wait on them again)."""
    at = pos_of(exit.node)
    places: Set[Pos] = set()
    for site in scope.waits:
        pending = site.pending
        for binding in pending.bindings:
            index = _innermost(binding.frames)
            if index < 0 or index != len(binding.frames) - 1 or binding.pos >= at or (
                    U_FINISH, binding.pos) not in pending.events:
                continue
            loop = binding.frames[index][1]
            if not pos_of(loop) <= at <= end_of(loop) or exit.frames[:index + 1] != binding.frames:
                continue  # (not in that loop's body, where its pass goes on to the exit)
            if isinstance(exit.node, ast.Break) and (_innermost(exit.frames) != index or _innermost(
                    binding.frames[:index]) >= 0):
                continue  # (a break of a loop inside it, or one an outer loop comes back to)
            body: List[ast.stmt] = getattr(loop, "body", [])
            if binding.stmt not in body or any(_continues_if(statement, binding.name) for statement in body[
                    body.index(binding.stmt) + 1:] if pos_of(statement) < at):
                continue
            places.add(binding.pos)
    return places


def _continues_if(statement: ast.stmt, name: str) -> bool:
    """Is ``statement`` ``if name: continue`` (or ``if len(name): continue``)?"""
    if not isinstance(statement, ast.If) or statement.orelse or len(statement.body) != 1:
        return False
    test = statement.test
    if isinstance(test, ast.Call) and isinstance(test.func, ast.Name) and test.func.id == "len" and test.args:
        test = test.args[0]
    return isinstance(test, ast.Name) and test.id == name and isinstance(statement.body[0], ast.Continue)


def _innermost(frames: Frames) -> int:
    """The index of the innermost loop in ``frames`` (-1: none)."""
    return max((i for i, frame in enumerate(frames) if frame[0] == LOOP), default=-1)


def returns_loop(call: ast.Call, scope: Scope) -> bool:
    """Is ``call`` a call, by its name, of a function of the module whose return
    annotation is an event loop (``def get_running_loop() -> asyncio.AbstractEventLoop``,
    asocksimap's shim: a miss of the fortieth trial's sweep)?  Defined once, at the
    module's top level, and no function around the call binds the name (one that
    binds it again through ``global`` is not seen: the text shortcut may leave it
    unread, and both paths must agree)."""
    func = call.func
    if not isinstance(func, ast.Name) or shadowed(scope, func.id):
        return False
    module = module_scope(scope)
    node = module.defs.get(func.id)
    return node is not None and func.id not in module.rebound and _loop_return(node.returns)


def _loop_return(node: Optional[ast.expr]) -> bool:
    """Is a return annotation an event loop (``asyncio.AbstractEventLoop``, also
    ``Optional[...]``, ``... | None``, or the same in a string), not a type that
    merely names one (``Callable[[], AbstractEventLoop]``, ``Union[Loop, Other]``)?"""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):  # (read without a parse: pure)
        text = node.value.replace(" ", "")
        if text.startswith(("Optional[", "typing.Optional[")) and text.endswith("]"):
            text = text[text.index("[") + 1:-1]
        parts = [part for part in text.split("|") if part != "None"]
        return len(parts) == 1 and parts[0].rpartition(".")[2] in N.LOOP_TYPES
    if isinstance(node, ast.Subscript) and N.last_name(node.value) == "Optional":
        return _loop_return(node.slice)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
        sides = (node.left, node.right)
        return any(_loop_return(side) for side in sides) and any(
            isinstance(side, ast.Constant) and side.value is None for side in sides)
    return isinstance(node, (ast.Name, ast.Attribute)) and N.last_name(node) in N.LOOP_TYPES


def done_only(pos: Pos, exit: Exit, names: Set[str], scope: Scope) -> bool:
    """Is ``pos`` in the body of an ``if task in done:`` (``done`` the done set of a
    wait given the task in a display) that ends with a ``return`` or ``raise``, before the
    exit: the exit is reached only where the test failed, with the task not
    done, which that body's handling does not touch (aiok8s's watcher, which raises
    ``StopAsyncIteration`` with its queue's ``get()`` task pending: a miss of the
    fortieth trial)?  Not when a ``break`` or ``continue`` in that body may lead to the
    exit, nor when the exit is in a handler (or after a ``suppress``) that the body's
    own exceptions reach (a ``try`` around the ``if`` but not the exit)."""
    frames = next((u.frames for name in names for u in scope.uses.get(name, ()) if u.pos == pos), ())
    at = pos_of(exit.node)
    for index in range(len(frames) - 1, -1, -1):
        kind, node, detail = frames[index]
        test = getattr(node, "test", None)
        if kind != BRANCH or detail != 0 or not isinstance(node, ast.If) or not isinstance(test, ast.Compare):
            continue
        done, mine = test.comparators[0], test.left
        if (len(test.ops) == 1 and isinstance(test.ops[0], ast.In) and isinstance(mine, ast.Name)
                and mine.id in names and isinstance(done, ast.Name) and end_of(node) < at
                and isinstance(node.body[-1], (ast.Return, ast.Raise))):
            first, last = pos_of(node.body[0]), end_of(node.body[-1])
            if any(f[0] in (TRY, SUPPRESS) and f not in exit.frames for f in frames[:index]) or any(
                    isinstance(e.node, (ast.Break, ast.Continue)) and first <= pos_of(e.node) <= last
                    for e in scope.exits):
                return False
            site = done_site(done.id, scope)
            return site is not None and others_waited(site, names) is not None
    return False


def done_site(name: str, scope: Scope) -> Optional[WaitSite]:
    """The wait whose done set the local ``name``, bound once, is."""
    if len(scope.bindings.get(name, ())) != 1:
        return None
    return next((site for site in scope.waits if site.done == name), None)


def others_waited(site: WaitSite, names: Set[str]) -> Optional[List[ast.expr]]:
    """The awaitables a wait waits on beside the task (a name of ``names``, once),
    when it is given a display; None otherwise.  (A starred item is one of them:
    it is never the task, nor the one awaitable a test compares with.)"""
    fs = site.node.args[0] if site.node.args else None
    if not isinstance(fs, (ast.List, ast.Tuple, ast.Set)):
        return None
    mine = [elt for elt in fs.elts if isinstance(elt, ast.Name) and elt.id in names]
    return [elt for elt in fs.elts if elt is not mine[0]] if len(mine) == 1 else None
