"""Catch pending asyncio tasks that are garbage-collected.  Used by the pytest
plugin (``pytest_plugin.py``); nothing here depends on pytest, and which static
finding a report confirms is decided in ``attribution.py``.

A :class:`Watch` is started for one test and stopped after it.  Its
:class:`Hooks` (shared by the watches of a pytest session, installed at the
first test and removed at its end; a watch without shared hooks installs its
own for the time it runs) patch, and afterwards restore:

* ``create_task`` and ``call_exception_handler`` of ``asyncio.BaseEventLoop``
  (and of ``uvloop.Loop`` and ``winloop.Loop`` when they are imported: Python
  subclasses of compiled loops, patched the same way).  ``create_task`` notes
  the stack that creates each task (by the task's id and a weak reference:
  nothing that keeps it alive); ``call_exception_handler`` records the loops'
  reports of a task destroyed while pending (and, if asked, of a task exception
  never retrieved) as :class:`Report` objects (strings and numbers only), then
  handles them as before;
* ``asyncio.all_tasks`` (``asyncio.tasks.all_tasks`` too): every shutdown asks
  it for the tasks it is about to cancel (``asyncio.run``, ``asyncio.Runner``,
  the runner back-ports anyio and pytest-asyncio use before Python 3.11,
  ``IsolatedAsyncioTestCase`` before 3.11, ``uvloop.run``, a hand-written
  ``for task in asyncio.all_tasks(): task.cancel()``), so the cyclic collector
  runs first when the loop has a task to cancel: a lost task is destroyed (and
  reported) instead of being cancelled cleanly with the others;
* with ``debug``, ``asyncio.coroutines._is_debug_mode``: loops created
  meanwhile start in debug mode, and tasks record their own creation stack.

The collector runs again at the end of the test (:meth:`Watch.collect`) if a
task created meanwhile may still be pending: one noted, or one asyncio knows
of (its registry; from Python 3.14 on, which keeps the tasks of its C
implementation elsewhere, also ``asyncio.all_tasks(loop)`` of each loop seen
creating a task or shutting down).  A
:class:`Heap`, one for a session, keeps the objects older than the recent tests
frozen (``gc.freeze``), so that these collections walk only recent objects and
nothing the test left as garbage survives it, and runs a full collection when
CPython would have run one.
"""
from __future__ import annotations

import asyncio
import dis
import gc
import os
import sys
import weakref
from dataclasses import dataclass
from types import CodeType, FrameType, FunctionType
from typing import Any, Callable, Dict, List, Optional, Set, Tuple

DESTROYED = "Task was destroyed but it is pending!"
NOT_RETRIEVED = "Task exception was never retrieved"

# Modules whose ``all_tasks`` a shutdown calls to find the tasks it cancels.
_ALL_TASKS = ("asyncio", "asyncio.tasks")
# Loop classes whose ``create_task`` and ``call_exception_handler`` are patched
# (module, class): asyncio's base loop, and the compiled loops' Python subclasses.
LOOPS = (("asyncio", "BaseEventLoop"), ("uvloop", "Loop"), ("winloop", "Loop"))
_STARTUP_FREEZE = gc.get_freeze_count()  # 375 on 3.12.1, 0 on 3.9-3.11 and 3.13
_ASYNCIO_DIR = os.path.dirname(os.path.abspath(asyncio.__file__)) + os.sep
# Python 3.14 keeps the tasks of asyncio's C implementation in per-thread lists
# that only ``asyncio.all_tasks(loop)`` reads, one loop at a time: the registry
# (``asyncio.tasks._scheduled_tasks``) holds only tasks of other classes.  The
# watch then also asks each loop it has seen (one that created a task or was
# shut down while watched) for its pending tasks.
ASK_LOOPS = sys.version_info >= (3, 14)
_all_tasks_of = asyncio.tasks.all_tasks  # the original: asking it must not collect

Frame = Tuple[str, int, str]  # file name, line, function
STACK_DEPTH = 12  # frames noted for a task created with the loop not in debug mode
PRUNE_AT = 1024  # notes kept before the dead and finished ones are dropped
# A note: (weak reference to the task, its coroutine's name, where the
# coroutine function is defined, the stack that created it, innermost first, as
# (code, last instruction) pairs: a frame's line number costs a walk of its
# code's line table, so lines are computed only for a report; the class of the
# object whose method the coroutine runs, if it runs one).
Note = Tuple[
    "weakref.ReferenceType[Any]",
    str,
    Optional[Tuple[str, int]],
    Tuple[Tuple[CodeType, int], ...],
    Optional[type],
]


@dataclass(frozen=True)
class Report:
    """What the loop said about one task, kept as plain values."""

    kind: str  # DESTROYED or NOT_RETRIEVED
    name: str  # the task's name, e.g. "Task-3"
    coroutine: str  # qualified name of its coroutine
    defined: Optional[Tuple[str, int]]  # where the coroutine function is defined
    created: Tuple[Frame, ...]  # the creation stack, outermost first ((): not recorded)
    exception: Optional[str] = None  # NOT_RETRIEVED: the exception's repr
    # when the task runs a method of an object: the object's type ("module.Class")
    owner: Optional[str] = None

    @classmethod
    def of(cls, kind: str, context: Dict[str, Any], note: Optional[Note] = None) -> Optional["Report"]:
        task = context.get("task" if kind == DESTROYED else "future")
        if not isinstance(task, asyncio.Task):
            return None
        stack = context.get("source_traceback") or getattr(task, "_source_traceback", None)
        created = tuple((entry.filename, entry.lineno or 0, entry.name) for entry in stack or ())
        owner = None
        if note is not None:
            _, coroutine, defined, stack_noted, owner_class = note
            owner = _name(owner_class) if owner_class is not None else None
            noted = tuple(
                (code.co_filename, _line_of(code, lasti), code.co_name)
                for code, lasti in reversed(stack_noted)
            )
        else:
            coro = _coro_of(task)
            coroutine, defined, noted = _name_of(coro), _defined(coro), ()
        exception = context.get("exception")
        return cls(
            kind=kind,
            name=task.get_name(),
            coroutine=coroutine,
            defined=defined,
            created=tuple(entry for entry in created if entry[0] != __file__) or noted,
            exception=repr(exception) if exception is not None else None,
            owner=owner,
        )

    def frames(self) -> List[Frame]:
        """The creation stack, innermost first, without the plugin's own frames
        (asyncio's are kept: :func:`in_asyncio` tells them)."""
        return [frame for frame in reversed(self.created) if frame[0] != __file__]


def in_asyncio(frame: Frame) -> bool:
    """Whether ``frame`` is asyncio's own code."""
    return frame[0].startswith(_ASYNCIO_DIR)


class Heap:
    """Keeps old objects frozen (``gc.freeze``), so that a collection during a
    test walks only recent objects: a full collection of a pytest process costs
    tens of milliseconds, once or twice a test.

    It works as CPython's generations do, one heap for a session.  The objects
    recent tests left stay unfrozen (the young ones: CPython's own collections
    and the watch's see them, so a cycle one test made and a later one drops is
    collected as without the plugin) until they outnumber ``YOUNG``; then they
    are collected and what survives is frozen with the rest (the old ones), so
    no garbage is ever frozen.  Before that, a full collection runs, unfrozen,
    on CPython's rule for its oldest generation: when the objects frozen since
    the last full collection outnumber a quarter of those it kept.  The freeze
    ends with :meth:`release`.

    Nothing is frozen if something else froze objects before the first test
    (unfreezing would undo their freeze; the few hundred objects Python 3.12
    freezes at startup do not count)."""

    YOUNG = 500  # about what CPython's youngest generation holds (700, 2,000 on 3.13)
    COUNT_EVERY = 4  # tests: counting the young objects lists them all

    def __init__(self) -> None:
        self.frozen = False  # frozen by us, not yet released
        self.size = 0  # objects frozen by the last full collection
        self.old = 0  # objects frozen since
        self.young = 0  # objects not frozen at the end of the last test
        self.full = 0  # full collections run
        self.tests = 0

    def before_test(self) -> bool:
        """Freeze what is old enough; whether the collections of the coming
        test walk only recent objects."""
        if self.frozen and self.young <= self.YOUNG:
            return True
        if not self.frozen:
            if gc.get_freeze_count() not in (0, _STARTUP_FREEZE):
                return False
            self.frozen = full = True
        else:
            full = self.old + self.young > self.size // 4
        if full:
            gc.unfreeze()
            gc.collect()
            gc.freeze()
            self.size, self.old = gc.get_freeze_count(), 0  # walks the frozen list: rare
            self.full += 1
        else:
            gc.collect()
            self.old += len(gc.get_objects())
            gc.freeze()
        self.young = 0
        return True

    def after_test(self) -> None:
        self.tests += 1
        if self.frozen and self.tests % self.COUNT_EVERY == 0:
            self.young = len(gc.get_objects())  # the frozen ones are not listed

    def release(self) -> None:
        if self.frozen:
            gc.unfreeze()
            self.frozen = False


class Hooks:
    """The patched asyncio functions (see the module docstring).  Installed
    once, for a session or for a watch alone, they act for the innermost
    started watch that uses them, and do nothing between tests: patching a
    class at every test would cost more (each change of a class or module
    drops the interpreter's caches of its attributes)."""

    def __init__(self, debug: bool = False) -> None:
        self.debug = debug
        self.loops: Tuple[type, ...] = ()  # loop classes patched
        self.unwatched: Set[str] = set()  # loop classes that could not be
        self._restore: List[Tuple[object, str, object]] = []  # (owner, name, original or _ABSENT)
        self._installed = False
        self._loops: Dict[int, "weakref.ReferenceType[Any]"] = {}  # loops seen (ASK_LOOPS)

    def saw(self, loop: Any) -> None:
        """Remember ``loop`` (weakly), to ask it for its pending tasks."""
        ref = self._loops.get(id(loop))
        if ref is not None and ref() is loop:
            return
        try:
            self._loops[id(loop)] = weakref.ref(loop)
        except TypeError:  # a loop without weak references: not asked
            pass

    def seen_loops(self) -> List[Any]:
        """The living loops seen so far (none unless ``ASK_LOOPS``)."""
        loops = []
        for key, ref in list(self._loops.items()):
            loop = ref()
            if loop is None:
                del self._loops[key]
            else:
                loops.append(loop)
        return loops

    def install(self) -> None:
        """Patch what is not yet patched (a loop class imported since, too)."""
        for module_name, class_name in LOOPS:
            cls = getattr(sys.modules.get(module_name), class_name, None)
            if isinstance(cls, type) and cls not in self.loops and _name(cls) not in self.unwatched:
                self._patch_loop(cls)
        if self._installed:
            return
        self._installed = True
        for module_name in _ALL_TASKS:
            module = sys.modules[module_name]
            self._patch(module, "all_tasks", self._collect_first(module.all_tasks))
        coroutines = sys.modules["asyncio.coroutines"]
        if self.debug and hasattr(coroutines, "_is_debug_mode"):
            self._patch(coroutines, "_is_debug_mode", self._debug_mode(coroutines._is_debug_mode))

    def remove(self) -> None:
        while self._restore:
            owner, name, original = self._restore.pop()
            if original is _ABSENT:
                delattr(owner, name)
            else:
                setattr(owner, name, original)
        self.loops = ()
        self._installed = False

    def watch(self) -> Optional["Watch"]:
        """The started watch these hooks act for, if any."""
        watch = _ACTIVE[-1] if _ACTIVE else None
        return watch if watch is not None and watch.hooks is self else None

    def _patch_loop(self, cls: type) -> None:
        handle = cls.call_exception_handler  # type: ignore[attr-defined]
        create_task = cls.create_task  # type: ignore[attr-defined]
        active = self.watch
        saw = self.saw

        def call_exception_handler(loop: Any, context: Dict[str, Any]) -> None:
            watch = active()
            if watch is not None:  # a watch started inside records alone
                watch.record(context)
            handle(loop, context)

        def create_task_noting_caller(loop: Any, coro: Any, *args: Any, **kwargs: Any) -> Any:
            task = create_task(loop, coro, *args, **kwargs)
            watch = active()
            if watch is not None:
                _drop_own_frames(task)
                watch.note(task, coro, sys._getframe(1))
                if ASK_LOOPS:
                    saw(loop)
            return task

        try:
            self._patch(cls, "call_exception_handler", call_exception_handler)
            self._patch(cls, "create_task", create_task_noting_caller)
        except (TypeError, AttributeError):  # a class that cannot be patched
            self.unwatched.add(_name(cls))
            return
        self.loops += (cls,)

    def _collect_first(self, all_tasks: Callable[..., Set[Any]]) -> Callable[..., Set[Any]]:
        active = self.watch

        def count(loop: Any) -> int:
            return len(all_tasks(loop))  # the set, which holds every task, is gone before collecting

        def all_tasks_collecting_first(loop: Any = None) -> Set[Any]:
            watch = active()
            if watch is not None:
                watch.before_shutdown(loop, count)
            return all_tasks(loop)

        return all_tasks_collecting_first

    def _debug_mode(self, is_debug_mode: Callable[[], bool]) -> Callable[[], bool]:
        active = self.watch

        def debug_mode_while_watched() -> bool:
            return active() is not None or is_debug_mode()

        return debug_mode_while_watched

    def _patch(self, owner: object, name: str, value: object) -> None:
        original = vars(owner).get(name, _ABSENT) if isinstance(owner, type) else getattr(owner, name)
        setattr(owner, name, value)
        self._restore.append((owner, name, original))


class Watch:
    """Records the loops' reports while started; see the module docstring.

    Without ``hooks`` it installs its own at :meth:`start` and removes them at
    :meth:`stop`; the pytest plugin shares one :class:`Hooks` and one
    :class:`Heap` among the watches of a session."""

    def __init__(
        self,
        exceptions: bool = False,
        debug: bool = False,
        heap: Optional[Heap] = None,
        hooks: Optional[Hooks] = None,
    ) -> None:
        self.kinds = (DESTROYED, NOT_RETRIEVED) if exceptions else (DESTROYED,)
        self.heap = heap
        self.hooks = hooks if hooks is not None else Hooks(debug)
        self._own_hooks = hooks is None
        self.reports: List[Report] = []
        self.unwatched: Set[str] = set()  # classes of loops seen at a shutdown but not watched
        self._noted: Dict[int, Note] = {}
        self._prune_at = PRUNE_AT
        self._before: Set[int] = set()  # ids of the tasks pending when the watch started

    def start(self) -> None:
        if self.heap is not None:
            self.heap.before_test()
        self._before = _pending_ids(self.hooks.seen_loops())
        self.hooks.install()
        self.unwatched |= self.hooks.unwatched
        _ACTIVE.append(self)

    def note(self, task: Any, coro: Any, frame: Optional[FrameType]) -> None:
        """Remember where ``task`` was created, until it is freed."""
        if not isinstance(task, asyncio.Future):
            return
        if task.done() and NOT_RETRIEVED not in self.kinds:
            # Finished at once (an eager task): it cannot be destroyed pending.
            # (With exceptions watched it is noted: its coroutine is gone, and
            # ``get_coro()`` even crashes Python 3.12.0 to 3.12.4 then, CPython
            # issue 122332, so the note keeps its name from ``coro``.)
            return
        # Each frame walked costs a frame object (most of the per-task cost), so
        # the walk stops where the attribution stops looking: at asyncio's code
        # again after code outside it (the loop running the coroutine that
        # created the task), the caller of which is not where it was lost.
        stack: List[Tuple[CodeType, int]] = []
        outside = False
        while frame is not None and len(stack) < STACK_DEPTH:
            code = frame.f_code
            if code.co_filename.startswith(_ASYNCIO_DIR):
                if outside:
                    break
            else:
                outside = True
            stack.append((code, frame.f_lasti))
            frame = frame.f_back
        self._noted[id(task)] = (
            weakref.ref(task), _name_of(coro), _defined(coro), tuple(stack), _owner_of(coro)
        )
        if len(self._noted) > self._prune_at:
            self._prune()

    def _prune(self) -> None:
        """Drop the notes of freed tasks (and, unless exceptions are watched, of finished ones)."""
        keep_done = NOT_RETRIEVED in self.kinds
        for key, (ref, *_) in list(self._noted.items()):
            task = ref()
            if task is None or (task.done() and not keep_done):
                del self._noted[key]
        self._prune_at = max(PRUNE_AT, 2 * len(self._noted))

    def pending(self) -> bool:
        """Whether a task created during the test may still be pending: noted,
        or registered by asyncio (``asyncio.Task()`` called directly too)."""
        return any(
            task is not None and not task.done() for task in (ref() for ref, *_ in self._noted.values())
        ) or not _pending_ids(self.hooks.seen_loops()) <= self._before

    def stop(self) -> None:
        if self in _ACTIVE:
            _ACTIVE.remove(self)
        if self._own_hooks:
            self.hooks.remove()
        if self.heap is not None:
            self.heap.after_test()
        self._noted.clear()

    def record(self, context: Dict[str, Any]) -> None:
        """Keep a report of ``context`` if it is one of the watched kinds."""
        message = context.get("message")
        if message not in self.kinds:
            return
        task = context.get("task", context.get("future"))
        note = self._noted.pop(id(task), None)
        if note is not None:
            alive = note[0]()
            # Another task with the id of a freed one: not the same coroutine.
            if (alive is not None and alive is not task) or (
                alive is None and note[1] != _name_of(_coro_of(task), note[1])
            ):
                note = None
        report = Report.of(str(message), context, note)
        if report is not None:
            self.reports.append(report)

    def collect(self) -> None:
        """Run the cyclic collector if a task created during the test may still
        be pending: a lost one is destroyed and reported now."""
        if self.pending():
            gc.collect()

    def before_shutdown(self, loop: Any, count: Callable[[Any], int]) -> None:
        """A shutdown is about to cancel ``loop``'s tasks: collect first if it has any."""
        running = asyncio._get_running_loop()
        loop = running if loop is None else loop
        if loop is None:
            return
        if ASK_LOOPS:
            self.hooks.saw(loop)
        if not isinstance(loop, self.hooks.loops):
            self.unwatched.add(_name(type(loop)))
        if count(loop) > (1 if loop is running else 0):  # the running task is not cancelled
            gc.collect()

    def take(self) -> List[Report]:
        reports, self.reports = self.reports, []
        return reports


_ABSENT = object()  # the patched class inherited the attribute: delete ours to restore
_ACTIVE: List[Watch] = []  # started watches, innermost last (pytester runs nest them)


def _name(cls: type) -> str:
    return f"{cls.__module__}.{cls.__qualname__}"


def _pending_ids(loops: List[Any]) -> Set[int]:
    """The ids of the pending tasks asyncio knows of.  Its registry is a weak
    set: only living tasks; its references are read directly, a copy first,
    which is cheaper than iterating the set.  From Python 3.14 on it holds only
    tasks that are not of asyncio's C implementation: ``loops`` (those seen,
    with ``ASK_LOOPS``) are asked for theirs."""
    scheduled = getattr(asyncio.tasks, "_scheduled_tasks", None)  # Python 3.12+
    registry = getattr(asyncio.tasks, "_all_tasks", None) if scheduled is None else scheduled
    tasks: List[Any] = [ref() for ref in list(getattr(registry, "data", ()))]
    tasks += getattr(asyncio.tasks, "_eager_tasks", ())
    for loop in loops:
        try:
            tasks += _all_tasks_of(loop)  # pending only
        except Exception:  # a loop that does not answer: its tasks are not counted
            continue
    return {id(task) for task in tasks if task is not None and not task.done()}


def _owner_of(coro: Any) -> Optional[type]:
    """The class of the object whose method ``coro`` runs (its first argument,
    an instance of a class that defines the method), if it runs one.  Asked
    when the task is created: by the time a lost task is destroyed, the
    collector may have closed its coroutine first."""
    code = getattr(coro, "cr_code", None)
    qualname = getattr(coro, "__qualname__", "")
    if (
        code is None
        or not code.co_argcount
        or code.co_varnames[0] != "self"
        or not qualname.endswith("." + code.co_name)
    ):
        return None
    prefix = qualname[: -len(code.co_name) - 1]
    # Its arguments, as the collector sees them: ``f_locals`` would store a
    # copy of the locals in the frame before Python 3.13, keeping them alive
    # after the coroutine deletes them.  Python 3.9 and 3.10 hold them in the
    # frame object, later versions in the coroutine.
    try:
        held = gc.get_referents(coro.cr_frame if sys.version_info < (3, 11) else coro)
    except Exception:  # a coroutine that does not answer: no owner
        return None
    for obj in held:  # the first argument comes before the other locals
        cls = type(obj)
        if cls in _NOT_OWNERS:
            continue
        for base in cls.__mro__:
            if base.__qualname__ == prefix:
                return cls
    return None


# What a coroutine holds besides its arguments, and common arguments: not an owner.
_NOT_OWNERS = frozenset((CodeType, FrameType, FunctionType, type, str, int, float, bytes, tuple, list, dict))


def _coro_of(task: Any) -> Any:
    """The task's coroutine, without ``get_coro()`` on a finished task (Python
    3.12.0 to 3.12.4 crash on one that finished eagerly, CPython issue 122332;
    ``_coro`` gives None then)."""
    if not task.done():
        return task.get_coro()
    return getattr(task, "_coro", None)


def _name_of(coro: object, unknown: str = "") -> str:
    if coro is None:
        return unknown
    return str(getattr(coro, "__qualname__", None) or type(coro).__name__)


def _line_of(code: CodeType, lasti: int) -> int:
    """The line of the instruction at offset ``lasti`` (what ``f_lineno`` said)."""
    if hasattr(code, "co_lines"):  # Python 3.10+
        for start, end, line in code.co_lines():
            if start <= lasti < end:
                return line or 0
        return 0
    found = 0
    for offset, line in dis.findlinestarts(code):
        if offset > lasti:
            break
        found = line
    return found


def _defined(coro: object) -> Optional[Tuple[str, int]]:
    code = getattr(coro, "cr_code", None) or getattr(coro, "gi_code", None)
    return (code.co_filename, code.co_firstlineno) if code is not None else None


def _drop_own_frames(task: Any) -> None:
    """A task of a loop in debug mode records its creation stack, which ends in
    our wrapper (asyncio drops only its own ``create_task`` frame): drop ours,
    so that asyncio's log names the user's line."""
    stack = getattr(task, "_source_traceback", None)
    if stack:
        stack[:] = [entry for entry in stack if entry.filename != __file__]
