"""The one table of messages: every code, its kebab-case name and its text.

Each message string starts with its code, as in flake8-pyi, so that the table is
the single place where a message is written.  ``OFF_BY_DEFAULT`` lists the codes
registered with flake8's ``extend_default_ignore``.  ``{what}`` is "task", or
"future" for the future of ``asyncio.gather()`` (``what_of``).

A finding is a ``SpanError`` of this module, not flake8-plugin-utils' ``Error``:
importing that imports flake8's option manager and plugin finder (about 30 ms),
which the ``flake8-taskref`` command does not need; the flake8 plugin converts
each finding to its ``Error`` (``plugin.py``).
"""
from __future__ import annotations

from typing import Any, Dict, Final, Optional, Tuple

KEEP_HINT: Final = "keep a reference (e.g. a set with add_done_callback(set.discard))"

MESSAGES: Final[Dict[str, str]] = {
    "TRF001": "TRF001 {what} returned by {call}(){where} is not stored{how}; " + KEEP_HINT,
    "TRF002": (
        "TRF002 {what} returned by {call}(){where} is held only by local '{name}', {why}; "
        + KEEP_HINT + " or await it"
    ),
    "TRF003": (
        "TRF003 {what} '{name}' (line {line}{others}) is held only by a local while {call}() "
        "may time out and unwind the frame; {fix}"
    ),
    "TRF004": "TRF004 asyncio.shield() of {what} {lost}; {fix}",
    "TRF005": "TRF005 pending tasks of asyncio.wait() are dropped (tasks from {names}); {fix}",
    "TRF006": "TRF006 tasks added to '{collection}' are never removed from it; {fix}",
    "TRF007": (
        "TRF007 {what} returned by {call}(){where} is held only by local '{name}' and still pending "
        "at {exit}; {finish} it on that path too, or "
        + KEEP_HINT
    ),
    "TRF008": (
        "TRF008 asyncio.gather() raises at the first failure and leaves the other tasks running, "
        "held only by local '{holder}' (line {line}{others}); cancel and await them in 'finally', "
        "or use an asyncio.TaskGroup"
    ),
    "TRF009": (
        "TRF009 task in {holder} is cancelled (line {cancel}) and dropped {where} while its coroutine "
        "{coroutine}() waits again in its cleanup (line {wait}); await it after cancel(), or "
        + KEEP_HINT + " until it is done"
    ),
    "TRF010": (
        "TRF010 asyncio.wait() does not cancel its tasks when the function is cancelled: the tasks held "
        "only by local '{holder}' (line {line}{others}) run on, held by nobody; cancel them in 'finally', "
        "or use an asyncio.TaskGroup"
    ),
}

# TRF002's ``{why}``: how the local that holds the handle loses it.
TRF002_WHY: Final[Dict[str, str]] = {
    "never": "which is never awaited, cancelled or stored",
    "rebound": "which the loop rebinds before the task is awaited, cancelled or stored",
    "collection": "a collection that dies with the frame (nothing awaits, cancels or stores its tasks)",
    "broken": (
        "a collection that dies with the frame (only a loop over it that may break handles its tasks, "
        "and not those after the break)"
    ),
    "weak": "which is only added to '{collection}', a weak collection that does not keep it",
}

# TRF001's ``{how}`` for a new task stored in an attribute that its own coroutine
# clears while it still has to wait.
HOW_CLEARED: Final = (
    " beyond line {line}, where its own coroutine sets 'self.{attr}' to None and then waits again"
)

# TRF001's ``{how}`` for ``run_coroutine_threadsafe(...).result(timeout)``.
HOW_TIMED: Final = " (only its {attr}() is waited for, and a timeout drops it while its task runs)"

# TRF001's ``{how}`` for ``run_coroutine_threadsafe``: the future is what holds the task.
HOW_THREADSAFE: Final = " (the task it runs on the loop is held only through this future)"
# TRF001's ``{how}`` for a new task added straight to a weak collection.
HOW_WEAK: Final = " (it is added to '{collection}', a weak collection, which does not keep it)"

NAMES: Final[Dict[str, str]] = {
    "TRF001": "dropped-task",
    "TRF002": "unkept-task-binding",
    "TRF003": "wait-for-orphans-task",
    "TRF004": "shield-unkept-task",
    "TRF005": "pending-tasks-dropped",
    "TRF006": "task-set-never-pruned",
    "TRF007": "task-lost-on-exit",
    "TRF008": "gather-orphans-tasks",
    "TRF009": "cancelled-task-dropped",
    "TRF010": "wait-orphans-on-cancel",
}

# One line per rule, for rule lists (SARIF's shortDescription, the docs).
SUMMARIES: Final[Dict[str, str]] = {
    "TRF001": "A new task's handle is thrown away at once.",
    "TRF002": "A task's handle is held only by a local that never leaves the frame.",
    "TRF003": "A timeout can unwind the frame while a local-only task runs.",
    "TRF004": "asyncio.shield() of a task nobody else keeps.",
    "TRF005": "The pending tasks of asyncio.wait() are dropped.",
    "TRF006": "A long-lived task collection is never pruned.",
    "TRF007": "A task handled on the usual path is still pending at a return, raise, break or continue.",
    "TRF008": "asyncio.gather() raises at the first failure while the other local-only tasks run on.",
    "TRF009": "A task is cancelled and dropped while its coroutine still waits in its cleanup.",
    "TRF010": "A cancellation at asyncio.wait() leaves the local-only tasks it waits on running.",
}

# TRF001/TRF002's ``{where}``: where a spawner of another module is defined.
WHERE: Final = " ({path}:{line})"
# TRF001/TRF002's ``{what}`` for a function that returns a collection of new tasks.
WHAT_TASKS: Final = "list of tasks"
# ... after ``{what}``, for a function that returns ``None`` (or a loop
# executor's future) on its other paths.
SOME_PATHS: Final = " (on some paths)"
# Why ``--fix`` leaves such a spawn (the set would be given ``None``), and one of
# ``await helper()`` (no statement of ours holds the task without binding it).
UNFIXABLE_AWAITED: Final = (
    "the task is what 'await' of the call returns: bind it (task = await ...) and keep it")
UNFIXABLE_TASKS: Final = (
    "the call returns a list of tasks: keep each of them (for task in ...: tasks.add(task); "
    "task.add_done_callback(tasks.discard)), or gather them")
UNFIXABLE_SOME_PATHS: Final = (
    "the call returns a new task on some paths only (None or nothing on others): keep what it returns "
    "where it is a task")

# Where each rule's page is published (the docs site built from docs/).
DOCS_URL: Final = "https://flake8-taskref.readthedocs.io/en/latest/rules/{code}/"

OFF_BY_DEFAULT: Final[Tuple[str, ...]] = ("TRF006", "TRF008", "TRF010")


# TRF006's fix, by the kind of collection its add shows.
PRUNE_HINTS: Final[Dict[str, str]] = {
    "set": "add task.add_done_callback({collection}.discard)",
    "list": (
        "remove each task when it is done (task.add_done_callback({collection}.remove)), "
        "or keep the tasks in a set"
    ),
    "dict": (
        "remove each task's entry when it is done "
        "(task.add_done_callback(lambda _, k={key}: {collection}.pop(k, None)))"
    ),
}


# TRF003's ``{fix}``: an asyncio task or future, or a ``concurrent.futures.Future``
# of ``run_coroutine_threadsafe`` (which the thread that waits cannot await).
# TRF005's ``{fix}``: the usual one; for tasks cancelled already and still running
# after the wait's timeout (``relays.abandoned_after_cancel``), where a cancel is no fix.
TRF005_FIXES: Tuple[str, str] = (
    "cancel, await or store the 'pending' set it returns",
    "await or store the 'pending' set it returns (they are cancelled already)",
)

TIMEOUT_FIXES: Dict[bool, str] = {
    False: "cancel and await it in 'finally', keep it in a set, or wait on both with asyncio.wait()",
    True: "cancel it in 'finally' (its cancel() cancels the task it runs), or keep it in a set",
}


def what_of(call: str) -> str:
    """What a spawning call returns, for messages: ``gather`` returns a future,
    ``run_coroutine_threadsafe`` a ``concurrent.futures.Future``."""
    return "future" if call in ("asyncio.gather", "asyncio.run_coroutine_threadsafe") else "task"


class SpanError:
    """A finding: its code, its message (without the code), where it starts
    (``lineno``, and ``col_offset`` in UTF-8 bytes, as ``ast`` counts) and where
    its node ends (``end_lineno``, ``end_col_offset``): among calls that start
    at one place (``loop().create_task(...)``), the end tells which one it is."""

    __slots__ = (
        "code", "message", "lineno", "col_offset", "end_lineno", "end_col_offset", "related", "unfixable",
    )

    def __init__(self, code: str, message: str, lineno: int, col_offset: int,
                 end_lineno: int = 0, end_col_offset: int = 0) -> None:
        self.code = code
        self.message = message
        self.lineno = lineno
        self.col_offset = col_offset
        self.end_lineno = end_lineno
        self.end_col_offset = end_col_offset
        # where the callee of another module is defined: (path under its source
        # root, line, its file as the caller named it), for SARIF's related locations
        self.related: Optional[Tuple[str, int, str]] = None
        # why ``--fix`` must leave it, when the analysis knows ("": it may try)
        self.unfixable = ""

    def __repr__(self) -> str:
        return f"<{self.code} {self.lineno}:{self.col_offset} {self.message!r}>"


def _templates() -> Dict[str, str]:
    templates: Dict[str, str] = {}
    for code, text in MESSAGES.items():
        assert text.startswith(code + " "), code
        templates[code] = text[len(code) + 1:]
    return templates


# The message of each code without the code, as reported (``SpanError.message``).
TEMPLATES: Final[Dict[str, str]] = _templates()


# The fields a message takes unless a rule gives them: TRF004 of a task a local holds says
# so (the local does hold it, until a cancellation of the awaiting frame unwinds it).
_DEFAULTS: Final[Dict[str, Dict[str, str]]] = {
    "TRF004": {
        "lost": "keeps no reference to the shielded task",
        "fix": "store the task (e.g. in a set with add_done_callback(set.discard)) and shield the "
               "stored task",
    },
}
SHIELD_OF_LOCAL: Final = {
    "lost": "leaves it held only by that local, which a cancellation of the awaiting frame drops while "
            "the task runs",
    "fix": "keep a reference that outlives the frame (e.g. a set with add_done_callback(set.discard))",
}


def make_error(code: str, lineno: int, col: int, end: Tuple[int, int] = (0, 0), **fields: Any) -> SpanError:
    """The finding ``code`` at a position (and the position where its node ends),
    its message formatted with ``fields`` (and the code's defaults, ``_DEFAULTS``)."""
    defaults = _DEFAULTS.get(code)
    text = TEMPLATES[code].format(**({**defaults, **fields} if defaults else fields))
    return SpanError(code, text, lineno, col, *end)
