"""Resolving names: import aliases to dotted names, and the names we know."""
from __future__ import annotations

import ast
import os
import sys
from typing import Any, Callable, Dict, FrozenSet, Iterable, List, Optional, Sequence, Set, Tuple

# asyncio submodules whose public names are re-exported by ``asyncio`` itself.
_ASYNCIO_SUBMODULES: FrozenSet[str] = frozenset(
    {"tasks", "events", "futures", "exceptions", "timeouts", "base_events", "taskgroups"}
)

TASK_SPAWNERS: FrozenSet[str] = frozenset(
    {"asyncio.create_task", "asyncio.ensure_future", "asyncio.Task", "asyncio.run_coroutine_threadsafe"}
)
# Spawners whose handle is a ``concurrent.futures.Future``: its ``result()`` and
# ``exception()`` wait until the task is done (on an asyncio task they raise).
THREADSAFE: str = "asyncio.run_coroutine_threadsafe"
CURRENT_TASK: str = "asyncio.current_task"
# ``loop.set_task_factory(f)``: a factory of the file that keeps each task it makes (``factories``)
SET_TASK_FACTORY: str = "set_task_factory"
WAITING_FUTURE_METHODS: FrozenSet[str] = frozenset({"result", "exception"})
# Coroutine functions of the standard library: ``asyncio.shield()`` of their call
# wraps it in a new task (as it does a coroutine function of the file's own).
STDLIB_COROUTINE_FUNCTIONS: FrozenSet[str] = frozenset(
    {
        "asyncio.sleep", "asyncio.to_thread", "asyncio.wait_for", "asyncio.wait",
        "asyncio.open_connection", "asyncio.open_unix_connection", "asyncio.start_server",
        "asyncio.start_unix_server", "asyncio.create_subprocess_exec", "asyncio.create_subprocess_shell",
    }
)
# The coroutine methods of asyncio's primitives (``coroutines.coroutine_function``).
PRIMITIVE_COROUTINES: Dict[str, FrozenSet[str]] = {
    **dict.fromkeys(("asyncio.Queue", "asyncio.PriorityQueue", "asyncio.LifoQueue"),
                    frozenset({"get", "put", "join"})),
    "asyncio.Event": frozenset({"wait"}),
    **dict.fromkeys(("asyncio.Lock", "asyncio.Semaphore", "asyncio.BoundedSemaphore"),
                    frozenset({"acquire"})),
    "asyncio.Condition": frozenset({"acquire", "wait", "wait_for"}),
    "asyncio.subprocess.Process": frozenset({"wait", "communicate"}),
}
# What the awaited call of these makes (``proc = await asyncio.create_subprocess_exec(...)``).
AWAITED_MAKERS: Dict[str, str] = dict.fromkeys(
    ("asyncio.create_subprocess_exec", "asyncio.create_subprocess_shell",
     "asyncio.subprocess.create_subprocess_exec", "asyncio.subprocess.create_subprocess_shell"),
    "asyncio.subprocess.Process")
# Calls that return a future, not a coroutine: ``ensure_future()`` of one returns
# it unchanged (no new task); by method name (any receiver), or by dotted name.
FUTURE_METHODS: FrozenSet[str] = frozenset({"run_in_executor", "create_future"})
FUTURE_FUNCTIONS: FrozenSet[str] = frozenset({"asyncio.wrap_future", "asyncio.Future"})
# The written types that say a name holds a coroutine (``coro: Coroutine[Any, Any, T]``), not a future
COROUTINE_TYPES: FrozenSet[str] = frozenset({
    "typing.Coroutine", "typing_extensions.Coroutine", "collections.abc.Coroutine", "types.CoroutineType",
})
GATHER: str = "asyncio.gather"
WAIT: str = "asyncio.wait"
AS_COMPLETED: str = "asyncio.as_completed"
WAIT_FOR: str = "asyncio.wait_for"
SHIELD: str = "asyncio.shield"
TIMEOUT_BLOCKS: FrozenSet[str] = frozenset({"asyncio.timeout", "asyncio.timeout_at"})
# Async context managers whose entry never suspends (their exit may: a task group
# waits for its tasks there)
QUIET_ENTRIES: FrozenSet[str] = frozenset(
    {"asyncio.TaskGroup", "asyncio.taskgroups.TaskGroup", "contextlib.AsyncExitStack"}
)
# Locks whose ``async with`` waits only while another task holds them
# (``coroutines.quiet_lock``)
LOCK_FACTORIES: FrozenSet[str] = frozenset(
    {"asyncio.Lock", "asyncio.locks.Lock", "asyncio.Semaphore", "asyncio.locks.Semaphore",
     "asyncio.BoundedSemaphore", "asyncio.locks.BoundedSemaphore", "asyncio.Condition",
     "asyncio.locks.Condition"}
)
LOOP_FACTORIES: FrozenSet[str] = frozenset(
    {
        "asyncio.get_running_loop",
        "asyncio.get_event_loop",
        "asyncio.new_event_loop",
        "uvloop.new_event_loop",
    }
)


def gets_loop(call: ast.Call) -> bool:
    """``x.get_loop()``: asyncio's name for the loop of a future, task, server or
    runner, and the one a class of the project that hands out its loop takes."""
    func = call.func
    return isinstance(func, ast.Attribute) and func.attr == "get_loop" and not call.args and not call.keywords


def tested_awaitable(frames: Sequence[Tuple[int, ast.AST, int]], arg: ast.expr) -> bool:
    """Is ``ensure_future(x)`` in the body of ``if asyncio.iscoroutine(x):`` (or
    ``inspect.isawaitable(x)``, ``hasattr(x, "__await__")``, also among the operands
    of an ``and``)?  The code says ``x`` is a coroutine to run, not a future."""
    if not isinstance(arg, ast.Name):
        return False
    for _, node, detail in frames:
        if isinstance(node, ast.If) and detail == 0:
            test = node.test
            parts = test.values if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.And) else [test]
            if any(_awaitable_test(part, arg.id) for part in parts):
                return True
    return False


def tests_name(frames: Sequence[Tuple[int, ast.AST, int]], name: str) -> bool:
    """Is the place in either branch of an ``if`` whose test asks something of
    ``name`` itself (``asyncio.isfuture(x)``, ``isinstance(x, Future)``, ``not
    iscoroutine(x)``, also among the operands of ``and``/``or``)?  What ``x`` holds
    is then what the code found, not what its written type says."""
    return any(isinstance(node, ast.If) and _asks(node.test, name) for _, node, _ in frames)


def _asks(test: ast.expr, name: str) -> bool:
    if isinstance(test, ast.BoolOp):
        return any(_asks(value, name) for value in test.values)
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        return _asks(test.operand, name)
    return isinstance(test, ast.Call) and bool(test.args) and isinstance(test.args[0], ast.Name) and (
        test.args[0].id == name)


def _awaitable_test(test: ast.expr, name: str) -> bool:
    if not isinstance(test, ast.Call) or not test.args or not isinstance(test.args[0], ast.Name):
        return False
    if test.args[0].id != name:
        return False
    if last_name(test.func) in ("iscoroutine", "isawaitable"):
        return len(test.args) == 1
    return (
        isinstance(test.func, ast.Name) and test.func.id == "hasattr" and len(test.args) == 2
        and isinstance(test.args[1], ast.Constant) and test.args[1].value == "__await__"
    )


# Names a ``from asyncio import *`` brings that matter to us.
_STAR_NAMES: FrozenSet[str] = frozenset(
    {
        "create_task", "ensure_future", "Task", "gather", "wait", "wait_for", "shield",
        "timeout", "timeout_at", "get_running_loop", "get_event_loop", "new_event_loop",
        "run_coroutine_threadsafe", "sleep", "to_thread", "wrap_future", "Future",
    }
)

# Coroutine methods of an event loop, and coroutine functions of asyncio: a local
# bound to such a call holds a coroutine, which ``ensure_future`` wraps in a task.
LOOP_COROUTINE_METHODS: FrozenSet[str] = frozenset({
    "create_connection", "create_server", "create_unix_connection", "create_unix_server",
    "create_datagram_endpoint", "connect_read_pipe", "connect_write_pipe", "subprocess_exec",
    "subprocess_shell", "getaddrinfo", "getnameinfo", "sock_connect", "sock_accept", "sock_recv",
    "sock_recv_into", "sock_sendall", "sock_sendfile", "sendfile", "start_tls", "connect_accepted_socket",
})
COROUTINE_FUNCTIONS: FrozenSet[str] = frozenset({
    "asyncio.sleep", "asyncio.open_connection", "asyncio.start_server", "asyncio.open_unix_connection",
    "asyncio.start_unix_server", "asyncio.create_subprocess_exec", "asyncio.create_subprocess_shell",
    "asyncio.to_thread", "asyncio.wait_for", "asyncio.wait",
})

# Loop methods that create a task (an event loop has no ``ensure_future``: the
# call raises AttributeError, and no task exists to keep).
LOOP_SPAWN_METHODS: FrozenSet[str] = frozenset({"create_task"})

# Callback APIs that throw away the callback's return value: method -> index of
# the callback among the positional arguments.
CALLBACK_APIS: Dict[str, int] = {
    "call_soon": 0,
    "call_soon_threadsafe": 0,
    "call_later": 1,
    "call_at": 1,
    "add_signal_handler": 1,
    "add_done_callback": 0,
    "add_reader": 1,
    "add_writer": 1,
}

# The loop's methods that call a callback later with the arguments they are given
# (through a ``Handle``, which keeps no result); a future's ``add_done_callback``
# calls it with the future.
LATER_APIS: FrozenSet[str] = frozenset({
    "call_soon", "call_soon_threadsafe", "call_later", "call_at",
    "add_reader", "add_writer", "add_signal_handler", "add_done_callback",
})

# Methods of a task that neither keep nor finish it (their result is not the task).
HARMLESS_TASK_METHODS: FrozenSet[str] = frozenset(
    {
        "add_done_callback", "remove_done_callback", "set_name", "get_name", "result",
        "exception", "done", "cancelled", "get_coro", "get_context", "get_stack",
        "print_stack", "get_loop", "cancelling", "uncancel",
    }
)
FINISH_TASK_METHODS: FrozenSet[str] = frozenset({"cancel"})
# Methods that put their argument(s) into the receiver collection.
ADD_METHODS: FrozenSet[str] = frozenset(
    {"add", "append", "appendleft", "insert", "extend", "extendleft", "update", "setdefault"}
)
# TRF006: what an add shows of its collection (``add``/``update``: a set).
LIST_ADDS: FrozenSet[str] = frozenset({"append", "appendleft", "insert", "extend", "extendleft"})
DICT_ADDS: FrozenSet[str] = frozenset({"setdefault"})
# Methods and operations that take elements out of a collection.
REMOVE_METHODS: FrozenSet[str] = frozenset(
    {
        "discard", "remove", "pop", "popitem", "popleft", "clear", "difference_update",
        "intersection_update", "symmetric_difference_update", "__delitem__",
    }
)
# Builtins that look at a value without keeping it.
HARMLESS_BUILTINS: FrozenSet[str] = frozenset(
    {"print", "repr", "str", "id", "hash", "bool", "len", "isinstance", "type", "format"}
)
# Builtins that read or set an attribute of their first argument: it is kept
# nowhere by that (``setattr(task, "tag", tag)``); what is set is kept.
ATTRIBUTE_BUILTINS: FrozenSet[str] = frozenset({"setattr", "getattr", "hasattr", "delattr"})
# A weak reference to a task (``self._task = weakref.ref(task)``) keeps nothing.
WEAK_REFERENCES: FrozenSet[str] = frozenset({"weakref.ref", "weakref.proxy", "weakref.ReferenceType"})
# Methods of a ``logging`` logger (or of the ``logging`` module) that format their
# arguments into a record: they keep nothing we follow.
LOG_METHODS: FrozenSet[str] = frozenset(
    {"debug", "info", "warning", "warn", "error", "exception", "critical", "fatal", "log"}
)
GET_LOGGER: str = "logging.getLogger"
PARTIAL: str = "functools.partial"
SUPPRESS: str = "contextlib.suppress"
# TRF006: methods that run once per object (adds there are bounded), and the
# exits of a context manager (an owner that lives for one ``with`` block).
SETUP_METHODS: FrozenSet[str] = frozenset(
    {"__init__", "__new__", "__post_init__", "setUp", "asyncSetUp"}
)
EXIT_METHODS: FrozenSet[str] = frozenset({"__exit__", "__aexit__"})
# Calls that copy a collection for iteration: ``for t in list(tasks)``.
COPYING_CALLS: FrozenSet[str] = frozenset({"list", "set", "tuple", "sorted", "frozenset"})
COPYING_METHODS: FrozenSet[str] = frozenset({"copy", "values", "items", "keys"})
# Expressions that make a fresh, empty (or copied) collection.
CONTAINER_FACTORIES: FrozenSet[str] = frozenset(
    {"set", "list", "dict", "collections.deque", "collections.OrderedDict",
     "collections.defaultdict", "deque", "OrderedDict", "defaultdict", "weakref.WeakSet"}
)

# Collections that hold their elements (values, for a dict) weakly: adding a
# task to one keeps nothing.  Their last parts, for the text shortcut.
WEAK_COLLECTIONS: FrozenSet[str] = frozenset({"weakref.WeakSet", "weakref.WeakValueDictionary"})
WEAK_WORDS: FrozenSet[str] = frozenset(name.rpartition(".")[2] for name in WEAK_COLLECTIONS)

# Calls that run the event loop inside the calling frame.
LOOP_RUN_METHODS: FrozenSet[str] = frozenset({"run_forever", "run_until_complete"})
# The tasks of the running loop not done yet (a drain loop's snapshot: ``paths._drained``).
ALL_TASKS: FrozenSet[str] = frozenset({"asyncio.all_tasks", "asyncio.tasks.all_tasks"})
LOOP_RUN_FUNCTIONS: FrozenSet[str] = frozenset({"asyncio.run"})
# Methods of a task that, polled in a ``while`` test, keep the frame until it is done.
POLL_METHODS: FrozenSet[str] = frozenset({"done"})


def strong_container(func: ast.expr, qualname: Optional[str], scope: Any) -> bool:
    """Is ``func`` of ``func[...]()`` a strong container's class (``list``,
    ``collections.deque``; a builtin's name not bound in ``scope``)?"""
    if isinstance(func, ast.Name) and qualname is None and func.id not in scope.bindings:
        qualname = func.id
    return qualname in CONTAINER_FACTORIES and qualname not in WEAK_COLLECTIONS


def fails_fast(call: ast.Call) -> bool:
    """Does this ``asyncio.gather()`` raise at the first failure, with the rest
    still running: no ``return_exceptions`` (or a literal false one), and no
    ``**kwargs`` that may hold it?"""
    for keyword in call.keywords:
        if keyword.arg is None:
            return False
        if keyword.arg == "return_exceptions":
            return isinstance(keyword.value, ast.Constant) and not keyword.value.value
    return True


# the timeout's classes and their bases (since 3.11 asyncio's and concurrent's
# TimeoutError is the builtin one, an OSError)
TIMEOUT_EXCEPTIONS: FrozenSet[str] = frozenset(
    {"TimeoutError", "OSError", "IOError", "EnvironmentError", "Exception", "BaseException"}
)
# builtin exceptions that are no base of TimeoutError (a handler naming only
# these lets a timeout pass)
NO_TIMEOUT_EXCEPTIONS: FrozenSet[str] = frozenset(
    {
        "ArithmeticError", "AssertionError", "AttributeError", "BufferError", "EOFError",
        "ImportError", "IndexError", "KeyError", "LookupError", "MemoryError",
        "ModuleNotFoundError", "NameError", "NotImplementedError", "OverflowError",
        "RecursionError", "ReferenceError", "RuntimeError", "StopIteration", "SyntaxError",
        "SystemError", "TypeError", "UnicodeError", "UnicodeDecodeError",
        "UnicodeEncodeError", "ValueError", "ZeroDivisionError", "ConnectionError",
        "BrokenPipeError", "ConnectionAbortedError", "ConnectionRefusedError",
        "ConnectionResetError", "FileNotFoundError", "FileExistsError", "PermissionError",
        "KeyboardInterrupt", "SystemExit", "GeneratorExit", "CancelledError",
    }
)
CANCEL_EXCEPTIONS: FrozenSet[str] = frozenset({"CancelledError", "BaseException"})


LOOP_TYPES: FrozenSet[str] = frozenset(
    {"AbstractEventLoop", "BaseEventLoop", "SelectorEventLoop", "ProactorEventLoop"}
)


def is_loop_annotation(node: ast.expr) -> bool:
    """``asyncio.AbstractEventLoop``, ``Optional[AbstractEventLoop]``,
    ``AbstractEventLoop | None`` or the same in a string."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return any(name in node.value for name in LOOP_TYPES)
    if isinstance(node, ast.Subscript):
        return is_loop_annotation(node.slice)
    if isinstance(node, ast.BinOp):
        return is_loop_annotation(node.left) or is_loop_annotation(node.right)
    if isinstance(node, ast.Tuple):
        return any(is_loop_annotation(elt) for elt in node.elts)
    return last_name(node) in LOOP_TYPES


# The module name of a file we cannot name (standard input without a display
# name): not an identifier, so no import can name it.
NO_MODULE = "<module>"
# Class decorators that leave a class's methods as written.
PLAIN_CLASS_DECORATORS: FrozenSet[Optional[str]] = frozenset(
    {"dataclasses.dataclass", "typing.final", "typing_extensions.final", "functools.total_ordering",
     "typing.runtime_checkable", "typing_extensions.runtime_checkable"}
)


DYNAMIC_METHODS: FrozenSet[str] = frozenset({"__getattr__", "__getattribute__"})
# The standard library's top-level modules: never modules of the project (a call
# of one of their functions is never looked up in another module's summary).
STDLIB: FrozenSet[str] = frozenset(getattr(sys, "stdlib_module_names", ())) | frozenset(
    {"asyncio", "logging", "functools", "contextlib", "typing", "collections", "os", "sys", "time",
     "weakref", "warnings", "json", "re", "threading", "concurrent", "inspect", "itertools", "socket",
     "signal", "subprocess", "traceback", "types", "dataclasses", "enum", "abc", "copy", "math",
     "random", "datetime", "pathlib", "shutil", "tempfile", "uuid", "ssl", "select", "selectors",
     "queue", "io", "builtins", "operator", "unittest", "errno", "struct", "base64", "hashlib"}
)
# The last names of asyncio's timeouts: a project name whose last part is one of
# them may be asyncio's under another module's name (``timeout = asyncio.timeout``
# in a compatibility module), which the rules look up.
BLOCK_NAMES: FrozenSet[str] = frozenset(name.rpartition(".")[2] for name in TIMEOUT_BLOCKS)
WAIT_FOR_NAMES: FrozenSet[str] = frozenset({WAIT_FOR.rpartition(".")[2]})
# Methods of a typed receiver that keep their own meaning (collections, task
# methods, callback APIs, logging): not looked up in the receiver's class.
NOT_TYPED_METHODS: FrozenSet[str] = (
    ADD_METHODS | REMOVE_METHODS | HARMLESS_TASK_METHODS | FINISH_TASK_METHODS | LOG_METHODS
    | LOOP_RUN_METHODS | LOOP_SPAWN_METHODS | frozenset(CALLBACK_APIS)
)


def is_package_file(filename: str) -> bool:
    """Is ``filename`` a package's ``__init__.py`` (or ``.pyi``)?"""
    return os.path.basename(filename).rsplit(".", 1)[0] == "__init__"


def canonical(dotted: str) -> str:
    """``asyncio.tasks.create_task`` -> ``asyncio.create_task``."""
    if dotted.startswith("asyncio."):
        parts = dotted.split(".")
        if len(parts) == 3 and parts[1] in _ASYNCIO_SUBMODULES:
            return "asyncio." + parts[2]
    return dotted


def module_name(filename: Optional[str]) -> Optional[str]:
    """The dotted name of the module in ``filename``: its stem, under the names of
    the directories above it that hold an ``__init__.py`` (``src/myapp/tasks.py``
    with ``src/myapp/__init__.py`` -> ``myapp.tasks``; a package's ``__init__.py``
    is the package).  Only the path and those ``__init__.py`` files are looked at;
    None when the name is not made of identifiers (``<stdin>``)."""
    if not filename or not filename.endswith((".py", ".pyi")):
        return None
    path = os.path.abspath(filename)
    folder, base = os.path.split(path)
    stem = base.rsplit(".", 1)[0]
    parts = [] if stem == "__init__" else [stem]
    while os.path.isfile(os.path.join(folder, "__init__.py")):
        folder, name = os.path.split(folder)
        if not name:
            break
        parts.append(name)
    parts.reverse()
    if not parts or not all(part.isidentifier() for part in parts):
        return None
    return ".".join(parts)


def package_name(filename: Optional[str], module: Optional[str]) -> Optional[str]:
    """The package that relative imports of the module start from: the module's
    parent, or the package itself for an ``__init__.py``."""
    if module is None or filename is None:
        return None
    if os.path.basename(filename).rsplit(".", 1)[0] == "__init__":
        return module
    parent = module.rpartition(".")[0]
    return parent or None


def absolute_module(package: Optional[str], level: int, module: Optional[str]) -> Optional[str]:
    """The module a relative import names (``from ..tasks import x`` at level 2)."""
    if not level:
        return module
    if package is None:
        return None
    parts = package.split(".")
    if level - 1 >= len(parts):
        return None
    base = ".".join(parts[: len(parts) - (level - 1)])
    return base + "." + module if module else base


class Imports:
    """The import aliases of one scope, chained to the enclosing scope's."""

    __slots__ = ("parent", "aliases", "star_asyncio", "known", "froms")

    def __init__(self, parent: Optional["Imports"]) -> None:
        self.parent = parent
        self.aliases: Dict[str, str] = {}
        # names bound by ``from MODULE import name``: MODULE (which must be a
        # module for the import to work; the name may be any attribute of it)
        self.froms: Dict[str, str] = {}
        self.star_asyncio = False
        # Every name any scope of the module imports (shared along the chain):
        # most names are not imported, and are answered without walking it.
        self.known: Set[str] = parent.known if parent is not None else set()

    def add_import(self, node: ast.Import) -> List[Tuple[str, str]]:
        """Record an import; return the (alias, dotted name) pairs it binds ``as``."""
        renamed = []
        for alias in node.names:
            if alias.asname:
                self._add(alias.asname, alias.name)
                renamed.append((alias.asname, alias.name))
            else:
                top = alias.name.split(".", 1)[0]
                self._add(top, top)
        return renamed

    def add_import_from(
        self, node: ast.ImportFrom, package: Optional[str] = None
    ) -> List[Tuple[str, str]]:
        """Record a from-import (a relative one against ``package``, the package of
        the file); return the (alias, dotted name) pairs it binds ``as``."""
        module = absolute_module(package, node.level, node.module)
        if not module:
            return []
        renamed = []
        for alias in node.names:
            if alias.name == "*":
                if module == "asyncio":
                    self.star_asyncio = True
                    self.known.update(_STAR_NAMES)
                continue
            dotted = module + "." + alias.name
            bound = alias.asname or alias.name
            self._add(bound, dotted)
            self.froms[bound] = module
            if alias.asname:
                renamed.append((alias.asname, dotted))
        return renamed

    def add_own(self, module: str, dotted_names: Iterable[str]) -> None:
        """Names of ``module`` itself (the file's module): a helper listed in the
        options is resolved where its own module calls it."""
        prefix = module + "."
        for dotted in dotted_names:
            if dotted.startswith(prefix) and "." not in dotted[len(prefix):]:
                self._add(dotted[len(prefix):], dotted)

    def bind(self, name: str, dotted: str) -> None:
        """``name`` stands for ``dotted`` (an alias the module assigns)."""
        self._add(name, dotted)

    def _add(self, name: str, dotted: str) -> None:
        self.aliases[name] = dotted
        self.froms.pop(name, None)
        self.known.add(name)

    def module_of(self, node: ast.expr) -> Optional[str]:
        """The module an imported name's dotted name starts with, as the import
        names it (``from a.b import c`` binds ``c`` in module ``a.b``; ``import
        a.b as m`` binds the module itself): what must be a module for it to
        be found, the rest being attributes of it."""
        while isinstance(node, ast.Attribute):
            node = node.value
        if not isinstance(node, ast.Name) or node.id not in self.known:
            return None
        scope: Optional[Imports] = self
        while scope is not None:
            if node.id in scope.aliases:
                return scope.froms.get(node.id, scope.aliases[node.id])
            scope = scope.parent
        return None

    def lookup(self, name: str) -> Optional[str]:
        if name not in self.known:
            return None
        scope: Optional[Imports] = self
        while scope is not None:
            found = scope.aliases.get(name)
            if found is not None:
                return found
            if scope.star_asyncio and name in _STAR_NAMES:
                return "asyncio." + name
            scope = scope.parent
        return None

    def resolve(self, node: ast.expr) -> Optional[str]:
        """The canonical dotted name an expression refers to, if it is imported."""
        if isinstance(node, ast.Name):
            found = self.lookup(node.id)
            return canonical(found) if found is not None else None
        if isinstance(node, ast.Attribute):
            base = self.resolve(node.value)
            if base is None:
                return None
            return canonical(base + "." + node.attr)
        return None


def puts_into_queue(node: ast.expr) -> bool:
    """Is ``node`` a call ``<something>.put(item)``: a queue's put, which
    waits only on a bounded queue that is full, where the queue keeps the
    waiting putter (and so its task)?"""
    return (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "put"
            and len(node.args) == 1 and not node.keywords)


def yields_once(node: ast.expr, qualname: Optional[str]) -> bool:
    """Is ``node`` ``asyncio.sleep(0)`` (``qualname``: what its callee
    resolves to)?  A task awaiting it yields once and is put back at once in
    the loop's queue of ready callbacks, which holds it: it never waits
    there unkept (see ``Scope.may_wait``)."""
    if qualname != "asyncio.sleep" or not isinstance(node, ast.Call) or len(node.args) != 1 or node.keywords:
        return False
    delay = node.args[0]
    return isinstance(delay, ast.Constant) and type(delay.value) in (int, float) and delay.value == 0


def chain_text(node: ast.expr) -> str:
    """``self.cond`` for a name or a chain of attributes of one; "" for anything
    else (``ast.dump`` would do, but imports modules on Python 3.15, which the
    analysis must not: ``tests/test_purity.py``)."""
    parts: List[str] = []
    while type(node) is ast.Attribute:
        parts.append(node.attr)
        node = node.value
    return ".".join([node.id, *reversed(parts)]) if isinstance(node, ast.Name) else ""


def dotted_text(node: ast.expr) -> str:
    """A short source-like text for a receiver, for messages (``self._loop``)."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return dotted_text(node.value) + "." + node.attr
    if isinstance(node, ast.Call):
        return dotted_text(node.func) + "()"
    if isinstance(node, ast.Subscript):
        return dotted_text(node.value) + "[...]"
    return "<expr>"


CASTS = frozenset({"typing.cast", "typing_extensions.cast"})


def uncast(node: ast.expr, resolve: Callable[[ast.expr], Optional[str]]) -> ast.expr:
    """``value`` of ``typing.cast(T, value)`` (two positional arguments); ``node`` otherwise."""
    if isinstance(node, ast.Call) and len(node.args) == 2 and not node.keywords and (
            resolve(node.func) in CASTS):
        return node.args[1]
    return node


def of_self_store(bindings: Optional[Sequence[Any]]) -> bool:
    """Are ``bindings`` (a local's, ``facts.Binding``) one, ``name = self.x`` or ``name =
    self.x[key]`` (attributes and subscripts from ``self`` or ``cls``): does the name hold
    a collection the object holds?"""
    statement = bindings[0].stmt if bindings is not None and len(bindings) == 1 else None
    if not (isinstance(statement, ast.Assign) and len(statement.targets) == 1):
        return False
    node = statement.value
    while isinstance(node, (ast.Attribute, ast.Subscript)):
        if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Slice):
            return False  # ``self._tasks[:]``: a copy
        node = node.value
        if isinstance(node, ast.Name):
            return node.id in ("self", "cls")
    return False


def last_name(node: ast.expr) -> Optional[str]:
    """``self.app.loop`` -> ``loop``; a name -> itself; anything else -> None."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return None


# What ``exception_names`` gives for a class it cannot read (``except
# EXPECTED[0]:``, ``except get_error():``, ``except (ValueError, *extra):``,
# ``suppress(*errors)``): it may be any exception, so it is no builtin that
# cannot be a timeout, and no timeout either; ``"?" in caught`` asks "may it
# catch anything?".
UNREADABLE = "?"


def exception_names(node: Optional[ast.expr]) -> Optional[FrozenSet[str]]:
    """Last names of the classes an ``except`` clause catches; None for bare
    except; ``UNREADABLE`` among them for a class that is no name."""
    if node is None:
        return None
    elts = node.elts if isinstance(node, ast.Tuple) else [node]
    names = set()
    for elt in elts:
        name = last_name(elt)
        names.add(UNREADABLE if name is None else name)
    return frozenset(names)


def import_fallback(attempt: ast.AST, statement: Optional[ast.AST]) -> bool:
    """Is ``statement`` an assignment in a handler of a ``try`` whose every handler
    catches only ``ImportError`` (or ``ModuleNotFoundError``)?  What a module
    assigns there is the stub of an import that failed (``except ImportError:
    asyncio = missing``, splitio's loaders): the module works only when the
    import did, so the name stands for what was imported (``exports``; a miss of
    the thirty-sixth trial's sweep).  A ``def`` there is a working alternative:
    the name stays bound twice."""
    if not isinstance(statement, (ast.Assign, ast.AnnAssign)):
        return False
    handlers = getattr(attempt, "handlers", ())
    caught = [exception_names(h.type) for h in handlers]
    return bool(caught) and all(names is not None and names <= _IMPORT_ERRORS for names in caught)


_IMPORT_ERRORS = frozenset({"ImportError", "ModuleNotFoundError"})


def catches(handler: ast.excepthandler, names: FrozenSet[str], unreadable: bool = True) -> bool:
    """Does the handler catch one of ``names``?  A class that is no name
    (``except ERRORS[0]:``) may be any: it is taken to catch, unless
    ``unreadable`` is False (where catching is what would report)."""
    caught = exception_names(handler.type)  # type: ignore[attr-defined]
    return caught is None or (unreadable and UNREADABLE in caught) or bool(caught & names)


def misses_cancellation(attempt: ast.AST) -> bool:
    """A ``try`` with a handler of ``Exception`` and none that may catch a
    cancellation (``gaps.lost_past_handler`` asks about its body's waits)."""
    handlers = getattr(attempt, "handlers", ())
    return any("Exception" in (exception_names(h.type) or ()) for h in handlers) and not any(
        catches(h, CANCELS) for h in handlers)


def suppresses(call: ast.Call, names: FrozenSet[str]) -> bool:
    """Does ``contextlib.suppress(...)`` suppress one of ``names`` (one it cannot
    read, ``suppress(*errors)``, may suppress any)?"""
    for arg in call.args:
        caught = exception_names(arg)
        if caught is not None and (UNREADABLE in caught or caught & names):
            return True
    return False


def timed_result(call: ast.Call) -> bool:
    """``fut.result(5)`` or ``fut.exception(timeout=t)``: a wait of a
    ``concurrent.futures.Future`` given a timeout (``timeout=None``, written
    out, waits for ever)."""
    func = call.func
    if not isinstance(func, ast.Attribute) or func.attr not in WAITING_FUTURE_METHODS:
        return False
    given = call.args[0] if call.args else next((k.value for k in call.keywords if k.arg == "timeout"), None)
    return given is not None and not (isinstance(given, ast.Constant) and given.value is None)


# Return types written down that are no task.
_PLAIN_RESULTS = frozenset({"bool", "int", "float", "str", "bytes", "None"})


def holds_no_task(value: ast.expr, annotation: Optional[ast.expr]) -> bool:
    """Is a returned value known to be no new task: a constant, a comparison, a
    string, an attribute (its object holds it), ``not x``, ``a and b`` of those,
    or anything, where the function's return type is written down as a plain
    one (``-> bool``)?"""
    if isinstance(value, (ast.Constant, ast.Compare, ast.JoinedStr, ast.Attribute)):
        return True
    if isinstance(value, ast.UnaryOp) and isinstance(value.op, ast.Not):
        return True
    if isinstance(value, ast.BoolOp) and all(holds_no_task(item, None) for item in value.values):
        return True
    if isinstance(annotation, ast.Constant):
        return annotation.value is None or annotation.value in _PLAIN_RESULTS
    return isinstance(annotation, ast.Name) and annotation.id in _PLAIN_RESULTS


def never_returns(value: ast.expr, resolve: Callable[[ast.expr], Optional[str]]) -> bool:
    """Does awaiting ``value`` never end but by an exception (a cancellation, most
    often): ``server.serve_forever()``, or a wait for a future or an event made in
    the expression itself, which nothing else can complete (``asyncio.Future()``,
    ``loop.create_future()``, ``asyncio.Event().wait()``)?"""
    if not isinstance(value, ast.Call) or value.args or value.keywords:
        return False
    func = value.func
    receiver = func.value if isinstance(func, ast.Attribute) else None
    if isinstance(func, ast.Attribute) and func.attr == "serve_forever":  # (asyncio's server's: not self's)
        return not (isinstance(receiver, ast.Name) and receiver.id in ("self", "cls"))
    if isinstance(func, ast.Attribute) and func.attr == "create_future":  # (of the running loop)
        return isinstance(receiver, ast.Call) and resolve(receiver.func) in _RUNNING_LOOP
    made = receiver if isinstance(func, ast.Attribute) and func.attr == "wait" else None
    if isinstance(made, ast.Call) and not made.args and not made.keywords:
        return resolve(made.func) == "asyncio.Event"
    return resolve(func) == "asyncio.Future"


_RUNNING_LOOP = frozenset({"asyncio.get_running_loop", "asyncio.get_event_loop"})


def flat_call(value: ast.expr, scope: Any = None, depth: int = 0) -> bool:
    """Is a returned ``value`` one whose only way to hold a new task is a callee the
    function's ``returns`` record (asyncio's spawn, a helper of the project): a call
    of a name or dotted name with only names, dotted names and constants as
    arguments (``collect(self.loop)``), or anything built of constants, attributes,
    items of an attribute, arithmetic and displays of those and calls of
    builtins that make no task (``len(self.items) + 1``, ``{"n": str(x)}``)?
    A name alone (its ``Use`` in ``returns`` tells), not one within, a call in
    another's arguments (``gather(a(), b())``), a lambda's, a builtin's name that
    ``scope`` or a scope around it binds (``def str(coro): ...``)."""
    kind = type(value)
    if kind is ast.Name:  # a returned local: its ``Use`` in ``returns`` tells
        return not depth
    if kind is ast.Call:
        func = value.func  # type: ignore[attr-defined]
        if type(func) is ast.Name and func.id in _PLAIN_BUILTINS and not _bound(scope, func.id):
            return True
        args = [*value.args, *(k.value for k in value.keywords)]  # type: ignore[attr-defined]
        return not depth and bool(chain_text(func)) and all(
            type(arg) is ast.Constant or chain_text(arg) for arg in args)
    if kind is ast.Constant or kind is ast.Attribute:
        return True
    if kind is ast.Subscript:  # (an item of ``self.tasks``: the object holds it)
        held = value.value  # type: ignore[attr-defined]
        owner = held.value if type(held) is ast.Attribute else None
        return type(owner) is ast.Name and owner.id in ("self", "cls")
    parts: Optional[List[Optional[ast.expr]]] = _PARTS[kind](value) if kind in _PARTS else None
    return parts is not None and depth < 16 and all(
        part is None or flat_call(part, scope, depth + 1) for part in parts)


def _bound(scope: Any, name: str) -> bool:
    """Does ``scope`` (a ``facts.Scope``) or a scope around it bind ``name``?"""
    while scope is not None:
        if name in scope.bindings:
            return True
        scope = scope.parent
    return False


_PLAIN_BUILTINS = frozenset({"len", "str", "int", "float", "bool", "repr", "format", "round", "abs", "hash"})
_PARTS: Dict[type, Callable[[Any], List[Optional[ast.expr]]]] = {
    ast.BinOp: lambda n: [n.left, n.right], ast.UnaryOp: lambda n: [n.operand],
    ast.BoolOp: lambda n: n.values, ast.Compare: lambda n: [n.left, *n.comparators],
    ast.IfExp: lambda n: [n.test, n.body, n.orelse], ast.JoinedStr: lambda n: n.values,
    ast.FormattedValue: lambda n: [n.value], ast.Dict: lambda n: [*n.keys, *n.values],
    ast.List: lambda n: n.elts, ast.Tuple: lambda n: n.elts, ast.Set: lambda n: n.elts,
}


def holds_nothing_to_lose(value: ast.expr) -> bool:
    """Is a returned value one whose caller can drop it with no task lost:
    ``None``, or the future of ``loop.run_in_executor(...)`` (the executor's
    own future holds it while the call runs in its thread)?"""
    if isinstance(value, ast.Constant):
        return value.value is None
    func = value.func if isinstance(value, ast.Call) else None
    return isinstance(func, ast.Attribute) and func.attr == "run_in_executor"


# Futures made empty: no coroutine runs for one (``fresh_futures``).
_FUTURE_CLASSES = frozenset({"asyncio.Future", "concurrent.futures.Future", "asyncio.futures.Future"})


def fresh_futures(
    name: str, stmts: Iterable[Optional[ast.stmt]], resolve: Callable[[ast.expr], Optional[str]],
) -> bool:
    """Is every one of these statements (the bindings of the local ``name``) a
    plain assignment to it of a new, empty future (``asyncio.Future()``, ``concurrent.futures.Future()``,
    ``loop.create_future()``), at least one?  A caller that drops such a value
    loses no task: nothing runs for it (``result_future = Future();
    result_future.set_result(result); return result_future``)."""
    found = False
    for stmt in stmts:
        targets = stmt.targets if isinstance(stmt, ast.Assign) else [getattr(stmt, "target", None)]
        plain = len(targets) == 1 and isinstance(targets[0], ast.Name) and targets[0].id == name
        value = getattr(stmt, "value", None) if plain else None
        func = value.func if isinstance(value, ast.Call) and not value.args and not value.keywords else None
        if func is None or not (resolve(func) in _FUTURE_CLASSES or (
                isinstance(func, ast.Attribute) and func.attr == "create_future")):
            return False
        found = True
    return found


# Calls that never return, ending a body as a ``raise`` does.
_NO_RETURN = frozenset({"assert_never", "sys.exit", "os._exit", "typing.assert_never"})


def falls_through(body: List[ast.stmt], breaks: Callable[[ast.stmt], bool]) -> bool:
    """May the statements run to their end (a function's body: it returns
    ``None``)?  Not when the last is a ``return``, a ``raise``, ``assert
    False`` or a call that never returns (``assert_never(x)``, ``sys.exit()``),
    a ``while True:`` with no ``break``, a ``for`` whose ``else`` ends so and that
    has no ``break``, or an ``if`` (a ``try``, a ``with`` that suppresses
    nothing, a ``match`` with a catch-all case) whose every part ends so."""
    last = body[-1] if body else None
    if isinstance(last, (ast.Return, ast.Raise)):
        return False
    if isinstance(last, ast.Assert):
        return not (isinstance(last.test, ast.Constant) and not last.test.value)
    if isinstance(last, ast.Expr) and isinstance(last.value, ast.Call):
        return dotted_text(last.value.func) not in _NO_RETURN
    if isinstance(last, ast.If):
        return not last.orelse or falls_through(last.body, breaks) or falls_through(last.orelse, breaks)
    if isinstance(last, (ast.With, ast.AsyncWith)):
        suppressing = any(
            isinstance(item.context_expr, ast.Call) and last_name(item.context_expr.func) == "suppress"
            for item in last.items
        )
        return suppressing or falls_through(last.body, breaks)
    if isinstance(last, (ast.While, ast.For, ast.AsyncFor)):
        if breaks(last):  # (the exits the pass recorded: nothing is walked again)
            return True
        if isinstance(last, ast.While) and isinstance(last.test, ast.Constant) and last.test.value:
            return False
        return not last.orelse or falls_through(last.orelse, breaks)
    cases: List[Any] = getattr(last, "cases", None) or []  # a ``match`` (Python 3.10+)
    if cases:
        catch_all = any(
            type(c.pattern).__name__ == "MatchAs" and c.pattern.pattern is None and c.guard is None
            for c in cases
        )
        return not catch_all or any(falls_through(c.body, breaks) for c in cases)
    if isinstance(last, TRIES):
        ends = [last.orelse or last.body, *(h.body for h in last.handlers)]
        if last.finalbody and not falls_through(last.finalbody, breaks):
            return False
        return any(falls_through(part, breaks) for part in ends)
    return True


TRIES = tuple(t for t in (getattr(ast, "Try", None), getattr(ast, "TryStar", None)) if t is not None)


def catches_close(attempt: ast.AST) -> bool:
    """Does a handler of this ``try`` catch the ``GeneratorExit`` that closes a
    generator (a bare ``except``, ``BaseException``, ``GeneratorExit``, or a
    class it cannot read: ``except CLOSING[0]:``)?"""
    return any(catches(handler, _CLOSING) for handler in getattr(attempt, "handlers", ()))


_CLOSING = frozenset({"BaseException", "GeneratorExit"})


def catches_cancellation(attempt: ast.AST, timeouts: bool) -> bool:
    """May a handler of this ``try`` catch a cancellation, or (``timeouts``: in
    a function with a timed wait or block) a timeout (``paths._caught``)?"""
    names = CANCELS | TIMEOUT_EXCEPTIONS if timeouts else CANCELS
    return any(catches(handler, names) for handler in getattr(attempt, "handlers", ()))


# The classes a handler names to catch a cancellation
CANCELS = frozenset({"CancelledError", "BaseException"})


def fresh_lock(call: ast.Call) -> bool:
    """A lock or semaphore (``LOCK_FACTORIES``) made in an ``async with`` itself,
    free to take: no argument, or a positive literal count (``Semaphore(0)`` waits)."""
    args = [*call.args, *(k.value for k in call.keywords)]
    return not args or len(args) == 1 and isinstance(args[0], ast.Constant) and type(
        args[0].value) is int and args[0].value > 0


def parameter_names(node: object) -> List[str]:
    """The named parameters of a function node (not ``*args``, ``**kwargs``); [] for anything else."""
    args = getattr(node, "args", None)
    if not isinstance(args, ast.arguments):
        return []
    return [a.arg for a in args.posonlyargs + args.args + args.kwonlyargs]


def returns_future(node: ast.expr, imports: "Imports") -> bool:
    """A call that returns a future, not a coroutine (``loop.run_in_executor``,
    ``loop.create_future``, ``asyncio.wrap_future``, ``asyncio.Future``): the
    executor's thread or the caller keeps it, and no task runs it."""
    if not isinstance(node, ast.Call):
        return False
    func = node.func
    if isinstance(func, ast.Attribute) and func.attr in FUTURE_METHODS:
        return True
    return imports.resolve(func) in FUTURE_FUNCTIONS
