"""What the scope analysis records: bindings, uses, groups of task handles, sites.

The visitor (``scopes.py``) fills these in one pass; the rules (``rules.py``) read them
and decide.  Nothing here walks a tree."""
from __future__ import annotations

import ast
from typing import AbstractSet, Dict, List, Optional, Set, Tuple, Union

from flake8_taskref.analysis import names as N
from flake8_taskref.analysis.modules import Resolver
from flake8_taskref.analysis.names import Imports, dotted_text

Pos = Tuple[int, int]
# A frame of the statement context: (kind, node, detail).
#   LOOP: node is the For/While; detail 0.
#   BRANCH: node is the If/Match; detail is the branch index.
#   TRY: node is the Try; detail is 0 body, 1 handlers, 2 orelse, 3 finalbody.
#   SUPPRESS: node is the With whose item ``detail`` is ``contextlib.suppress(...)``.
Frame = Tuple[int, ast.AST, int]
Frames = Tuple[Frame, ...]
# A statement that suspends: where it starts, its context, where its wait ends, whether it lets its
# tasks run on when cancelled (``wait``, ``shield``), its awaited call, and if it enters an ``async with``
Wait = Tuple[Pos, Frames, Pos, bool, Optional[ast.Call], bool]
LOOP, BRANCH, TRY, SUPPRESS = 0, 1, 2, 3
TRY_BODY, TRY_HANDLERS, TRY_ELSE, TRY_FINALLY = 0, 1, 2, 3

# How a value is used (the "sink" it flows to) when it is not a group or a name.
DROP, KEEP, FINISH, TRUTH, HARMLESS, SHIELDED = range(6)

# Kinds of a use of a name.  U_CALL: passed to a function this file may define, decided
# once its summary is known (``summaries.py``).  U_ADD: added to a collection that
# outlives the frame (the use's target is the ``CollectionAdd``): kept, unless the file
# shows the collection is weak (``weakref.WeakSet``), decided once the whole file has
# been seen (``ModuleFacts.weak``).  U_RESULT: ``result()`` or ``exception()`` is called
# on it: that waits until the task is done for the ``concurrent.futures.Future`` of
# ``run_coroutine_threadsafe`` (a finish), and only looks at an asyncio task (it raises
# while the task is pending), decided by the handle's spawns.
U_FINISH, U_KEEP, U_HARMLESS, U_GUARD, U_FLOW, U_CALL, U_ADD, U_RESULT = range(8)

FunctionNode = Union[ast.FunctionDef, ast.AsyncFunctionDef]


class CallbackSink:
    """The value is returned from a callback whose return value is thrown away."""

    __slots__ = ("api",)

    def __init__(self, api: str) -> None:
        self.api = api


class CallSite:
    """A call of a function this file may define, ``helper(...)`` or ``self.helper(...)``,
    or of a function of another module of the project (``remote``): whether it is one,
    and what it does to its arguments and returns, is decided once the file is seen."""

    __slots__ = (
        "node", "name", "owner", "bound", "scope", "names", "spawned", "remote", "dropped", "awaited",
    )

    def __init__(
        self, node: ast.Call, name: str, owner: Optional["Scope"], bound: bool, scope: "Scope",
        remote: Optional["Remote"] = None,
    ) -> None:
        self.node = node
        self.name = name
        # the module or class scope that defines ``name`` (for ``self.name(...)``, the class
        # of the calling method, which may inherit it); None for another module's function
        self.owner = owner
        self.bound = bound  # called through self/cls, or an instance
        self.scope = scope  # the calling function
        self.names: List[str] = []  # names passed as arguments
        self.spawned = False  # a new task is passed straight in
        self.remote = remote
        # its result is dropped by a statement of its own (``helper()``), or ``await
        # helper()`` is (``awaited``: what the coroutine returns is dropped)
        self.dropped = False
        self.awaited = False

    @property
    def text(self) -> str:
        """The callee as written, for messages: ``self._detach``."""
        return dotted_text(self.node.func)


class Remote:
    """How a call reaches a function of another module: a dotted name the file imports
    (``spawn_logged``, ``util.spawn``: ``dotted``), or a method of an object whose class
    is written down (``self._worker.cancel_group``, ``conn.close``: ``receiver`` is
    ``self.<attr>`` or a parameter's name, ``method`` the method), resolved at the end."""

    __slots__ = ("dotted", "module", "receiver", "method")

    def __init__(
        self, dotted: Optional[str] = None, receiver: Optional[ast.expr] = None, method: str = "",
        module: Optional[str] = None,
    ) -> None:
        self.dotted = dotted
        self.module = module  # the part of ``dotted`` its import requires to be a module
        self.receiver = receiver
        self.method = method


class ClassFacts:
    """What a class statement shows other modules: its bases (dotted names, "" for one
    that is no name), the types written down for its attributes (None where two disagree;
    ``"x[]"``: those of the values of a mapping ``x``, ``values_key``), the attributes its
    methods make event loops, and whether its methods are unknowable (a metaclass, a
    decorator, ``__getattr__``)."""

    __slots__ = ("bases", "types", "loop_attrs", "dynamic", "assigned")

    def __init__(self) -> None:
        self.bases: List[str] = []
        self.types: Dict[str, Optional[str]] = {}
        self.loop_attrs: Set[str] = set()
        self.dynamic = False
        # the attributes its methods assign (``self.hook = callback``): an
        # instance attribute that may hide a method of that name (this file only)
        self.assigned: Set[str] = set()

    def note_type(self, attr: str, dotted: Optional[str]) -> None:
        if dotted is None:
            return
        if attr in self.types and self.types[attr] != dotted:
            self.types[attr] = None
        else:
            self.types[attr] = dotted


class CallArg:
    """An argument of a ``CallSite``: positional ``index``, or ``keyword``."""

    __slots__ = ("call", "index", "keyword")

    def __init__(self, call: CallSite, index: int, keyword: Optional[str]) -> None:
        self.call = call
        self.index = index
        self.keyword = keyword


class CallbackArg(CallArg):
    """A callable argument that makes a task when it is called (``run_hook(lambda: asyncio.
    create_task(c))``): in ``call_drops``, lost if the callee calls it as a statement."""

    __slots__ = ()


class Spawn:
    """A call that may create a task; whether it does is decided at the end (for
    ``helper``, a call of a function of this file: if it returns a new task)."""

    __slots__ = ("node", "callee", "receiver", "frames", "how", "helper", "coroutine")

    def __init__(
        self,
        node: ast.expr,
        callee: str,
        receiver: Optional[ast.expr],
        frames: Frames,
        how: str = "",
    ) -> None:
        self.node = node
        self.callee = callee  # a dotted name, or the method name when receiver is set
        self.receiver = receiver
        self.frames = frames
        self.how = how
        self.helper: Optional[CallSite] = None
        # a spawner handed on as a callable: the coroutine it will be called with,
        # where the call shows it (``call_soon(asyncio.ensure_future, c())``)
        self.coroutine: Optional[ast.expr] = None

    @property
    def pos(self) -> Pos:
        return (self.node.lineno, self.node.col_offset)

    @property
    def runs(self) -> Optional[ast.Call]:
        """The call that makes the coroutine the task runs, where the code shows
        it: the spawn's first argument, or the one a spawner handed on as a
        callable is called with (``coroutine``)."""
        node = self.coroutine
        if node is None and isinstance(self.node, ast.Call) and self.node.args:
            node = self.node.args[0]
        return node if isinstance(node, ast.Call) else None

    @property
    def argument(self) -> Optional[ast.Call]:
        """``runs`` of a spawn given its coroutine as its first argument
        (``create_task(self._run())``): not a helper's call, nor a spawner handed
        on as a callable."""
        return self.runs if self.helper is None and self.coroutine is None else None

    @property
    def runs_one_coroutine(self) -> bool:
        """A loop's ``create_task`` or one of asyncio's spawners (its first
        argument is the one coroutine it runs), not ``gather(a(), b())`` or a
        spawner the options name."""
        return self.receiver is not None or self.callee in N.TASK_SPAWNERS


class FutureSpawn(Spawn):
    """``asyncio.ensure_future(param)`` of a parameter: no spawn where it is (the
    argument may be a future), but a function that returns it returns a new task
    to a call that gives it a coroutine (``Summaries.spawner``, ``FunctionInfo.ensures``)."""

    __slots__ = ()


class Group:
    """Task handles that share one fate: a local name's value, a local collection,
    the future of a gather, or the pending set of an asyncio.wait()."""

    __slots__ = ("name", "spawns", "events", "flows", "opaque", "wait", "bindings", "collection", "coroutine")

    def __init__(self, name: str) -> None:
        self.name = name
        # its handles came in as items of a display or comprehension (a list,
        # tuple or set of tasks, for a function that returns it)
        self.collection = False
        # its value is a coroutine (``coro = loop.create_connection(...)``): see
        # ``coroutines.makes_coroutine``
        self.coroutine = False
        self.spawns: List[Spawn] = []
        # (use kind, position): FINISH and KEEP decide, the rest are recorded.
        self.events: List[Tuple[int, Pos]] = []
        # Groups this one flows into ("if they are handled, so is this one"),
        # or names of collections, resolved at the end; with the flowing use.
        self.flows: List[Tuple[Union["Group", str], "Use"]] = []
        self.opaque = False  # holds a value we cannot follow: treat as kept
        self.wait: Optional[WaitSite] = None
        self.bindings: List[Binding] = []


class Binding:
    """A local name bound at a place, to a group (or to a value we do not track)."""

    __slots__ = ("name", "group", "pos", "block", "block_end", "kills", "frames", "stmt", "value")

    def __init__(
        self,
        name: str,
        group: Optional[Group],
        pos: Pos,
        block: int,
        block_end: Pos,
        kills: bool,
        frames: Frames,
        stmt: Optional[ast.stmt],
    ) -> None:
        self.name = name
        self.group = group
        self.pos = pos  # where the binding takes effect (end of the statement)
        self.block = block  # id of the statement list holding the binding statement
        self.block_end = block_end
        self.kills = kills  # an unconditional plain assignment
        self.frames = frames
        self.stmt = stmt
        # the value of ``(name := value)`` (an assignment's is its statement's)
        self.value: Optional[ast.expr] = None


class Use:
    """A load of a name, classified by how its value is used."""

    __slots__ = ("name", "pos", "kind", "target", "frames")

    def __init__(
        self,
        name: str,
        pos: Pos,
        kind: int,
        target: Union[Group, str, CallArg, "CollectionAdd", None],
        frames: Frames,
    ) -> None:
        self.name = name
        self.pos = pos
        self.kind = kind
        self.target = target
        self.frames = frames


class TimeoutSite:
    """A place where a timeout may raise: an awaited wait_for, a timeout block.  For a block,
    where the frame may be suspended inside it (the timeout can hit there), and the spans of
    the handlers and ``finally`` blocks of the ``try`` statements inside it (run when it does)."""

    __slots__ = ("node", "label", "end", "frames", "suspends", "guarded", "module", "waits_only")

    def __init__(
        self, node: ast.AST, label: str, end: Pos, frames: Frames, block: bool = False,
        module: Optional[str] = None, waits_only: bool = False,
    ) -> None:
        self.node = node
        self.waits_only = waits_only  # ``fut.result(timeout)``: the wait finishes nothing
        self.label = label
        # a name of the project that may stand for asyncio's (``from ._compat import
        # timeout``): the module its import requires, looked up at the end
        self.module = module
        self.end = end
        self.frames = frames
        self.suspends: Optional[List[Pos]] = [] if block else None
        self.guarded: List[Tuple[Pos, Pos]] = []


class ShieldSite:
    """An asyncio.shield() call and what it shields; ``outer`` is the local group
    its returned future goes into, if any (kept, it keeps the shielded task)."""

    __slots__ = ("node", "spawn", "coro", "use", "frames", "outer")

    def __init__(
        self,
        node: ast.Call,
        frames: Frames,
        spawn: Optional[Spawn] = None,
        coro: Optional[ast.expr] = None,
        use: Optional[Use] = None,
    ) -> None:
        self.node = node
        self.frames = frames
        self.spawn = spawn
        self.coro = coro
        self.use = use
        self.outer: Optional[Group] = None


class GatherSite:
    """An awaited ``asyncio.gather()`` that raises at the first failure of what it gathers
    (no ``return_exceptions``), while the rest runs on: its anonymous ``group`` (the handles
    gathered flow into it), where it ends, the statement context, and whether it gathers
    more than one awaitable (two arguments or a starred one)."""

    __slots__ = ("node", "group", "end", "frames", "many")

    def __init__(self, node: ast.Call, group: "Group", end: Pos, frames: Frames, many: bool) -> None:
        self.node = node
        self.group = group
        self.end = end
        self.frames = frames
        self.many = many


class WaitSite:
    """An awaited asyncio.wait() that may return with tasks still pending."""

    __slots__ = ("node", "pending", "done")

    def __init__(self, node: ast.Call, pending: Group) -> None:
        self.node = node
        self.pending = pending
        self.done = ""  # the local bound to its done set (``done, pending = await ...``)


class CollectionAdd:
    """``owner.attr.add(x)``, ``owner.attr[k] = x`` or ``module_name.add(x)``: a
    candidate for TRF006; ``key`` is (id of the class scope, attribute) or (0,
    module name)."""

    __slots__ = ("key", "text", "node", "spawn", "use", "scope")

    def __init__(
        self,
        scope: "Scope",
        key: Tuple[int, str],
        text: str,
        node: ast.AST,
        spawn: Optional[Spawn],
        use: Optional[Use],
    ) -> None:
        self.scope = scope
        self.key = key
        self.text = text
        self.node = node
        self.spawn = spawn
        self.use = use


class Scope:
    """One module, class body, function or lambda."""

    __slots__ = (
        "kind", "node", "parent", "cls", "imports", "bindings", "uses", "loads",
        "declared", "groups", "drops", "timeouts", "shields", "waits", "gathers", "loop_vars",
        "async_defs", "children", "module_adds", "loop_exits", "loop_runs", "forever", "drained",
        "loop_aliases",
        "defs", "rebound", "calls", "call_drops", "returns", "inert_returns", "generator", "weak_drops",
        "klass", "types", "dropped_calls", "suspends", "waits_on", "returns_value", "opaque_returns",
        "may_wait", "exits", "cancels", "keeps_itself", "waited", "catches_all", "clears", "pauses",
        "entered_async", "self_stores", "handed", "cleanups", "awaits", "keeps_in",
        "cleanup_waits", "waiting_tries", "cancel_drops", "local_drops", "passed", "awaited_attrs",
        "lock_entries", "wait_points", "yields", "event_sets",
    )

    MODULE, CLASS, FUNCTION = 0, 1, 2

    def __init__(self, kind: int, node: ast.AST, parent: Optional["Scope"]) -> None:
        self.kind = kind
        self.node = node
        self.parent = parent
        self.cls: Optional[Scope] = None
        if parent is not None:
            self.cls = parent if parent.kind == Scope.CLASS else parent.cls
        self.imports: Imports = Imports(parent.imports if parent is not None else None)
        self.bindings: Dict[str, List[Binding]] = {}
        self.uses: Dict[str, List[Use]] = {}
        self.loads: Set[str] = set()
        self.declared: Set[str] = set()  # global / nonlocal
        self.groups: List[Group] = []
        self.drops: List[Spawn] = []
        self.timeouts: List[TimeoutSite] = []
        self.shields: List[ShieldSite] = []
        self.waits: List[WaitSite] = []
        self.gathers: List[GatherSite] = []
        self.loop_vars: Set[str] = set()
        self.loop_aliases: Dict[str, str] = {}  # ``x = name``: x holds a loop if name does
        self.async_defs: Set[str] = set()
        self.children: List[Scope] = []
        # the entered coroutine functions defined here, by name (``coroutines.own_coroutine``)
        self.entered_async: Dict[str, List[Scope]] = {}
        self.module_adds: List[Tuple[str, CollectionAdd]] = []  # ``name.add(x)``, name not local
        self.loop_exits: Dict[int, List[Pos]] = {}  # ids of loops left by break/return -> the exits' ends
        # Where the function runs the event loop itself (``runs_loop``; ``runners``).
        self.loop_runs: List[Tuple[Pos, Frames]] = []
        # ``while True:`` loops, and awaits that never return, atop a function body (the frame lives).
        self.forever: List[ast.stmt] = []
        # which are drain loops (``paths._drained``, once each; by name: is a local only a drain's snapshot)
        self.drained: Dict[Union[int, str], bool] = {}
        # Module and class scopes: the functions defined in them by name, and the names
        # bound more than once (such a function is not known).
        self.defs: Dict[str, FunctionNode] = {}
        self.rebound: Set[str] = set()
        # Function scopes: calls of functions this file may define; new tasks
        # passed straight to them; what ``return`` returns (a Spawn, a Use of a
        # name, or None for anything else); whether the function is a generator.
        self.calls: List[CallSite] = []
        self.call_drops: List[Tuple[Spawn, CallArg]] = []
        self.returns: List[Union[Spawn, Use, Group, None]] = []
        # of those None: how many return nothing a caller could lose (``return
        # None``, ``return loop.run_in_executor(...)``: ``names.holds_nothing_to_lose``)
        self.inert_returns = 0
        self.generator = False
        # Class scopes: what the class shows other modules.  Function scopes:
        # the types written down for parameters (dotted names).
        self.klass: Optional[ClassFacts] = ClassFacts() if kind == Scope.CLASS else None
        self.types: Dict[str, str] = {}
        # Function scopes: can the frame be suspended (an ``await``, ``async
        # for``, ``async with`` in its body)?  A coroutine that never is runs to
        # its end in its task's first step: the task is never pending unkept.
        self.suspends = False
        # ... and may its task matter after its first step: may it wait for
        # something other than a queue (``await queue.put(item)``: a bounded
        # queue keeps its waiting putter, and so the task; an unbounded one never
        # waits) or the loop's next turn (``await asyncio.sleep(0)``: the loop's
        # queue of ready callbacks holds the task)?  ``returns_value``: may it return a value (a new task
        # its done task holds)?  ``opaque_returns``: one ``returns`` cannot tell (``names.flat_call``)?
        self.may_wait = False
        self.returns_value = self.opaque_returns = False
        # ... the calls it awaits that may be coroutine functions of the file or of the
        # project (``await self.flush()``): no wait of ``may_wait``; the frame waits there
        # only if their coroutine may (``coroutines.never_suspends``; other modules: waits)
        self.waits_on: List[ast.Call] = []
        # ... the attributes it enters as ``async with self.lock:``: no wait of ``may_wait``
        # either; entering waits only if another holder of the lock may wait while
        # holding it (``coroutines.quiet_lock``; another module sees them as waits)
        self.lock_entries: List[str] = []
        # How many places that may wait the recorder has seen in it so far (an ``await``,
        # ``async for``, ``async with`` but a lock's): a lock entered around none waits not.
        self.wait_points = 0
        # Async generators: the ``yield`` statements, where a consumer may close it.
        self.yields: List["YieldExit"] = []
        # Once a task is made: ``event.set()`` statements, by the event's text, where, in what
        # context, and whether only plain statements run before it in its block (a task of
        # ``event.wait()`` is woken there: ``lookups.woken``).
        self.event_sets: List[Tuple[str, Pos, Frames, bool]] = []
        # New tasks added straight to a collection that outlives the frame: lost if it is weak.
        self.weak_drops: List[Tuple[Spawn, CollectionAdd]] = []
        # Function scopes: names it calls as a statement, dropping the result (``hook(*args)``).
        self.dropped_calls: Set[str] = set()
        # Function scopes: the explicit exits, in source order (``exits.py``).
        self.exits: List[Exit] = []
        # ... and where a local's ``cancel()`` is called (the name's position).
        self.cancels: Set[Pos] = set()
        # Function scopes: does the body store ``asyncio.current_task()`` where it outlives
        # the frame, on every path, before it first waits (its task keeps itself:
        # ``coroutines.py``)?  ``waited``: has the pass met a suspension point behind it
        # (``await``, ``async for``, a whole ``async with``; not the entry of one around it)?
        self.keeps_itself = False
        # its own task added to a module's collection before it first waits (``coroutines.self_keepers``)
        self.keeps_in: List["CollectionAdd"] = []
        self.waited = False
        # Function scopes: a ``try`` whose handler of every ``Exception`` does
        # not re-raise (``exits.py``): a task of it is taken not to fail.
        self.catches_all = False
        # Function scopes (``exits.py``): ``self.attr = None`` in a coroutine function, and
        # the statements that suspend after one (``await``, ``async for``, ``async with``),
        # with their context; and the new tasks stored as ``self.attr = spawn``.
        self.clears: List[Tuple[str, Pos, Frames]] = []
        self.pauses: List[Tuple[Pos, Frames]] = []
        self.self_stores: List[Tuple[str, Spawn]] = []
        # ... and the attributes of ``self`` a statement hands on (``keep(self.attr)``,
        # ``x = self.attr``): something else may hold what they hold.
        self.handed: Set[str] = set()
        # Function scopes (``exits.py``): each ``try`` with a ``finally`` or a handler of
        # every exception, and each statement that suspends (an ``await`` as its value,
        # ``async with``, ``async for``), with their context: a task made before such a
        # ``try`` whose cleanup finishes it is lost when one raises in between (``gaps.py``).
        self.cleanups: List[Tuple[ast.Try, Frames]] = []
        # (each wait: ``Wait``, ``exits._wait_of``)
        self.awaits: List[Wait] = []
        # Function scopes (``exits.py``, TRF009: ``cancels.py``): each statement of a coroutine
        # function that suspends in a ``finally``, an ``except`` or its top level (its position,
        # context and awaited call), the ``try`` bodies that suspend, ``self.attr.cancel()``
        # followed at once by a store or ``del`` of ``self.attr`` (attribute, cancel, drop), and
        # a path ending in ``local.cancel()`` followed by a drop of it (cancel, drop, context).
        self.cleanup_waits: List[Tuple[Pos, Frames, Optional[ast.Call]]] = []
        self.waiting_tries: Set[int] = set()
        self.cancel_drops: List[Tuple[str, ast.Expr, ast.stmt]] = []
        self.local_drops: List[Tuple[ast.Expr, ast.stmt, Frames, Tuple[ast.stmt, ...]]] = []
        # ... in methods, the attributes of ``self`` a statement hands on anywhere (``handed``
        # counts only those after a store), and, after a store, each ``await self.attr``
        self.passed: Set[str] = set()
        self.awaited_attrs: List[Tuple[str, Pos, Frames]] = []

    @property
    def runs_loop(self) -> bool:
        """Does the function run the event loop itself?  A sync one that does
        outlives the loop: its frame holds its locals while the loop runs."""
        return bool(self.loop_runs)

    def holds_loop(self, name: str, loop_names: AbstractSet[str], depth: int = 0) -> bool:
        """Is ``name``, as seen from this scope, bound to an event loop (directly,
        or through ``x = name`` aliases, up to eight deep)?"""
        current: Optional[Scope] = self
        while current is not None:
            if name in current.loop_vars:
                return True
            source = current.loop_aliases.get(name)
            if source is not None and source != name and depth < 8:
                return source in loop_names or current.holds_loop(source, loop_names, depth + 1)
            if name in current.bindings:
                return False
            current = current.parent
        return False


# What happens to a value: a sink constant, a group of handles, a name (the
# value goes into that local collection) or a callback that drops it.
Sink = Union[int, Group, str, CallbackSink]


def enclosing_binder(scope: Optional[Scope], name: str) -> Optional[Scope]:
    """The function, from ``scope`` outwards, that binds ``name`` as a local of
    its own (not ``global``/``nonlocal``); None when no function does."""
    while scope is not None and scope.kind != Scope.MODULE:
        if scope.kind == Scope.FUNCTION and name in scope.bindings and name not in scope.declared:
            return scope
        scope = scope.parent
    return None


class Exit:
    """A way out of a statement list: ``return``, ``raise``, ``break`` or ``continue`` (recorded
    by ``exits.py``; ``EndExit``: ``paths._ends``), followed by ``paths.py``, with its context."""

    __slots__ = ("node", "frames")

    def __init__(self, node: ast.stmt, frames: Frames) -> None:
        self.node = node
        self.frames = frames


class YieldExit(Exit):
    """A ``yield`` statement of an async generator: a consumer that stops early closes the
    generator there (``GeneratorExit``, as a ``raise``), and the frame ends (``paths.py``)."""

    __slots__ = ()


class EndExit(Exit):
    """The end of a function after a handler of a cancellation or a timeout (``paths._ends``)."""

    __slots__ = ()


class ModuleFacts:
    """Everything recorded for one module."""

    def __init__(
        self, module: Scope, name: Optional[str] = None, package: bool = False,
        filename: Optional[str] = None,
    ) -> None:
        self.module = module
        self.filename = filename
        self.scopes: List[Scope] = [module]
        # The module's dotted name (None outside a package chain we can name), and is it a package.
        self.name = name
        self.package = package
        # What the module binds at its level that other modules may import: names
        # bound by imports or to another module's name (``timeout =
        # asyncio.timeout``), with every dotted name each is bound to; the classes
        # it defines; ``__all__``.
        self.aliases: Dict[str, List[str]] = {}
        self.classes: Dict[str, Scope] = {}
        self.exported: Optional[List[str]] = None
        # names the module binds at its level otherwise than by an import or an
        # alias assignment (a summary takes a name bound both ways as ambiguous)
        self.other_bound: Set[str] = set()
        # The other modules, through their summaries (set by the recorder).
        self.resolver: Optional[Resolver] = None
        self.loop_attrs: Set[str] = set()
        # ``self.attr = name``: (attr, name, scope), a loop attribute if name holds a loop.
        self.loop_attr_aliases: List[Tuple[str, str, Scope]] = []
        self.pruned: Set[Tuple[int, str]] = set()
        # Attribute names pruned through any receiver (``self.proxy.tasks.pop()``).
        self.pruned_attrs: Set[str] = set()
        self.adds: List[CollectionAdd] = []
        # ``x.set_task_factory(f)`` in a statement (not a header): x, f, the scope (``factories``)
        self.task_factories: List[Tuple[ast.expr, ast.expr, Scope]] = []
        # (id of a module or class scope, name): bound there to a new strong collection
        self.strong_names: Set[Tuple[int, str]] = set()
        self.module_prunes: Set[str] = set()
        # Attribute names that receive a loop spawn method (``self.io`` in ``self.io.create_task(...)``),
        # but for the configured loop names: only loop attributes of these names matter.
        self.receiver_attrs: Set[str] = set()
        # Locks (``coroutines.quiet_lock``), by attribute name: the names given a
        # new ``asyncio.Lock()`` (or semaphore), how many attribute stores give
        # one (or ``None``), how many loads of ``x.name`` and how many of them are
        # ``async with x.name:`` items; and the names that may be held across a
        # wait, or hold something else: entered around a wait (``async with
        # x.lock: await ...``), acquired by hand, given any other value.
        self.new_locks: Set[str] = set()
        self.lock_stores: Dict[str, int] = {}
        self.attr_loads: Dict[str, int] = {}
        self.lock_items: Dict[str, int] = {}
        self.waiting_locks: Set[str] = set()
        # Names bound at module level, and class attributes, from logging.getLogger().
        self.loggers: Set[str] = set()
        self.logger_attrs: Set[str] = set()
        # ``self.attr`` read in a class's __exit__/__aexit__: (id of class scope, attr).
        self.read_at_exit: Set[Tuple[int, str]] = set()
        # Weak collections (``weakref.WeakSet()``, ``WeakValueDictionary()``): how
        # many stores of each attribute the file has, and how many of them store
        # a new weak collection, by (id of the class scope, attr) for ``self.attr``
        # in a method, (0, attr) through any other receiver; module names bound
        # to one.
        self.attr_stores: Dict[Tuple[int, str], int] = {}
        self.weak_stores: Dict[Tuple[int, str], int] = {}
        self.weak_names: Set[str] = set()
        # What ``coroutines.py`` asks again and again: the classes of the file
        # deriving from each of its classes, by the base's name, and the names
        # declared ``global`` or ``nonlocal`` (with the number of scopes entered
        # when they were looked for).
        self.derived: Optional[Dict[str, List[Scope]]] = None
        self.declared_globals: Tuple[int, Set[str]] = (0, set())

    def weak(self, add: CollectionAdd) -> bool:
        """Does the file show that ``add``'s collection is weak (adding a task to it keeps
        nothing)?  An attribute every store of which, in the file, is a new weak collection
        (at least one through ``self`` in the class; a store through another receiver may be
        to this object too), or a module name bound once, at module level, to one, and never
        bound by a function (``global``) or as a local of a function around the add."""
        owner, name = add.key
        if owner:
            stores, weak = self.attr_stores, self.weak_stores
            foreign = (0, name)
            return (
                weak.get(add.key, 0) > 0
                and stores.get(add.key, 0) == weak[add.key]
                and stores.get(foreign, 0) == weak.get(foreign, 0)
            )
        if name not in self.weak_names or name in self.module.rebound:
            return False
        return enclosing_binder(add.scope, name) is None and not self.bound_by_global(name)

    def bound_by_global(self, name: str) -> bool:
        """Does a function bind the module's ``name`` through ``global``?"""
        return any(
            name in scope.declared and name in scope.bindings
            for scope in self.scopes
            if scope.kind == Scope.FUNCTION
        )

    def added(self, add: CollectionAdd) -> int:
        """What an add does to the handle it adds (a use of kind ``U_ADD``): keeps
        it (``U_KEEP``), unless the collection is weak (``U_HARMLESS``)."""
        return U_HARMLESS if self.weak(add) else U_KEEP

    def release(self) -> None:
        """Break the reference cycles between the recorded facts (scopes and their
        children, groups and their bindings, flows and waits), so that reference
        counting frees them when the analysis is done instead of a later run of
        the cyclic collector (which would walk them, and the tree, again)."""
        adds = list(self.adds)
        for scope in self.scopes:
            adds.extend(add for _, add in scope.module_adds)
            scope.weak_drops = []
        for add in adds:  # a use of kind U_ADD targets its add
            add.scope = add.use = None  # type: ignore[assignment]
        for scope in self.scopes:
            scope.parent = scope.cls = None
            scope.children = []
            scope.entered_async = {}
            scope.module_adds = []
            for call in scope.calls:
                call.scope = call.owner = None  # type: ignore[assignment]
            scope.calls = []
            scope.call_drops = []
            scope.returns = []
            scope.exits = []
            for group in scope.groups:
                group.bindings = []
                group.flows = []
                group.wait = None
        self.scopes = []
