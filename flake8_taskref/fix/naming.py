"""The name a fix gives a task's handle: after what is spawned, as a reviewer
would name it, never a bare counter where a word is available.

What is spawned is the spawner's coroutine argument (its first positional
argument, or ``coro=``, ``coro_or_future=``, ...).  Its word, by preference:

1. the callee of a coroutine call: ``self._watchdog()`` -> ``watchdog``,
   ``self.reqSummary()`` -> ``req_summary`` (snake case), seen through what
   only hands a coroutine on: ``await``, ``asyncio.wait_for(c, t)``,
   ``asyncio.shield(c)``, ``functools.partial(f, ...)()``, ``f.__call__()``,
   ``factory()()`` (-> ``factory``), ``jobs[0]()`` (-> ``jobs``);
2. the task's ``name=`` when it is a plain word (``name="heartbeat"``);
3. a coroutine held by a name or attribute: ``coro`` -> ``coro``,
   ``self._pump_coro`` -> ``pump`` (``_coro``/``_coroutine`` dropped),
   ``self.pending[0]`` -> ``pending``;
4. a helper spawner's own name (``self._start_watchdog()`` -> ``start_watchdog``);
5. none: ``task``.

The handle is the word and ``_task`` (a word that ends in ``task`` as it is,
``tasks`` made singular), ``_future`` for ``asyncio.gather()`` (named after its
awaitables when they share one word, else ``gather_future``).  Where two sites
of one function get the same word from methods of different objects
(``self.reader.run()``, ``self.writer.run()``), each is named with its object
too (``reader_run_task``, ``writer_run_task``); a counter (``watchdog_task_1``)
only tells apart what has the same words.
"""
from __future__ import annotations

import ast
import keyword
import re
from typing import List, NamedTuple, Optional, Set

from flake8_taskref.fix.nodes import dotted

TASK = "task"
# asyncio's spawners: their own names say nothing of what they run
_GENERIC_SPAWNERS = frozenset({"create_task", "ensure_future", "Task", "gather", "run_coroutine_threadsafe"})
# calls that take an awaitable and hand it on (or a task running it): named after it
_HANDING_ON = frozenset(
    {"wait_for", "shield", "ensure_future", "create_task", "Task", "run_coroutine_threadsafe"}
)
# keywords that name the coroutine of asyncio's spawners and wrappers
_COROUTINE_KEYWORDS = ("coro", "coro_or_future", "aw", "awaitable", "future", "fut", "coroutine")
# the receivers of methods that say nothing of the method's object
_SELF_NAMES = frozenset({"self", "cls", "mcs", "klass"})
_COROUTINE_SUFFIXES = ("_coroutine", "_coro")
_PLAIN_NAME = re.compile(r"[A-Za-z][A-Za-z_ .-]{0,31}")


class Word(NamedTuple):
    """The handle's word, and the same word with the object whose method it is
    (``reader_run``), to tell apart two sites with the same word."""

    word: str
    qualified: Optional[str] = None


def snake(name: str) -> str:
    """``reqAccountSummary`` -> ``req_account_summary``; ``HTTPGet`` -> ``http_get``;
    a name in lower case (``start``, ``_close``) as it is."""
    if name.islower() or not name.isidentifier():
        return name
    out: List[str] = []
    for i, char in enumerate(name):
        if char.isupper():
            before = name[i - 1] if i else ""
            after = name[i + 1] if i + 1 < len(name) else ""
            if before and before != "_" and (before.islower() or before.isdigit() or after.islower()):
                out.append("_")
            out.append(char.lower())
        else:
            out.append(char)
    return "".join(out)


def _clean(name: str) -> Optional[str]:
    """An identifier as a word of a new name: snake case, without leading and
    trailing underscores and a ``_coro`` suffix; None if nothing is left."""
    word = snake(name.strip("_"))
    for suffix in _COROUTINE_SUFFIXES:
        if word.endswith(suffix) and len(word) > len(suffix):
            word = word[: -len(suffix)].rstrip("_")
    word = word.strip("_")
    return word if word and (word + "_").isidentifier() else None


def _owner(node: ast.expr) -> Optional[str]:
    """The word of the object a method is called on (``self.reader`` -> ``reader``),
    or None (``self``, a call, ...)."""
    name = dotted(node)
    if name is None:
        return None
    last = name.rsplit(".", 1)[-1]
    return None if last in _SELF_NAMES else _clean(last)


def _named(node: ast.expr) -> Optional[Word]:
    """The word of a callee or of a value held by a name: ``f``, ``a.b.f``,
    ``jobs[0]``, ``f.__call__``, ``partial(f, ...)``, ``factory()``."""
    if isinstance(node, ast.Name):
        word = _clean(node.id)
        return Word(word) if word else None
    if isinstance(node, ast.Attribute):
        if node.attr == "__call__":
            return _named(node.value)
        word = _clean(node.attr)
        if not word:
            return None
        owner = _owner(node.value)
        return Word(word, f"{owner}_{word}" if owner else None)
    if isinstance(node, ast.Subscript):
        return _named(node.value)
    if isinstance(node, ast.Call):  # partial(f, ...)() runs f; factory()() what factory makes
        if (dotted(node.func) or "").rsplit(".", 1)[-1] == "partial" and node.args:
            return _named(node.args[0]) or _named(node.func)
        return _named(node.func)
    return None


def _unwrapped(node: ast.expr) -> ast.expr:
    """What is awaited or handed on: ``await x`` -> ``x``; ``asyncio.wait_for(c, 5)``,
    ``asyncio.shield(c)`` -> ``c``."""
    while True:
        if isinstance(node, ast.Await):
            node = node.value
        elif isinstance(node, ast.Call) and (dotted(node.func) or "").rsplit(".", 1)[-1] in _HANDING_ON:
            inner = _coroutine_argument(node)
            if inner is None:
                return node
            node = inner
        else:
            return node


def _called(node: ast.expr) -> Optional[Word]:
    """The word of a coroutine call (rule 1), or None."""
    node = _unwrapped(node)
    return _named(node.func) if isinstance(node, ast.Call) else None


def _coroutine_argument(call: ast.Call) -> Optional[ast.expr]:
    if call.args and not isinstance(call.args[0], ast.Starred):
        return call.args[0]
    for item in call.keywords:
        if item.arg in _COROUTINE_KEYWORDS:
            return item.value
    return None


def _task_name(call: ast.Call) -> Optional[str]:
    """``name="heartbeat"`` (a plain word: no digits, which would read as a counter)."""
    for item in call.keywords:
        value = item.value
        if item.arg == "name" and isinstance(value, ast.Constant) and isinstance(value.value, str):
            if _PLAIN_NAME.fullmatch(value.value):
                return _clean(re.sub(r"[ .-]+", "_", value.value))
    return None


def _word(call: ast.Call, spawner: str) -> Optional[Word]:
    """The word of what ``call`` (a spawn) runs, by the rules above; None: no word."""
    argument = _coroutine_argument(call)
    arguments = [] if argument is None else [argument]
    if spawner not in _GENERIC_SPAWNERS:  # a helper may take its coroutine after a delay, a name, ...
        arguments += [item for item in call.args[1:] if not isinstance(item, ast.Starred)]
    for item in arguments:
        found = _called(item)
        if found is not None:
            return found
    name = _task_name(call)
    if name is not None:
        return Word(name)
    held = None if argument is None else _unwrapped(argument)
    if isinstance(held, (ast.Name, ast.Attribute, ast.Subscript)):
        found = _named(held)
        if found is not None:
            return found
    if spawner not in _GENERIC_SPAWNERS:
        found = _named(call.func)
        if found is not None:
            return Word(found.word)  # a helper: its object says nothing more
    return None


def _gathered(call: ast.Call) -> Word:
    """``asyncio.gather(...)``'s word: its awaitables' one word, else ``gather``."""
    words: Set[Optional[str]] = set()
    for argument in call.args:
        found = None if isinstance(argument, ast.Starred) else _called(argument)
        words.add(found.word if found is not None else None)
    word = words.pop() if len(words) == 1 else None
    return Word(word or "gather")


def _handle(word: str, suffix: str) -> str:
    if word.endswith(suffix):
        return word
    if word.endswith(suffix + "s"):
        return word[:-1]  # self.tasks[0] -> task
    return f"{word}_{suffix}"


def handle_names(call: ast.Call) -> "Word":
    """The handle's name for a spawn (``watchdog_task``), and the one with its
    object (``reader_run_task``), if any."""
    spawner = (dotted(call.func) or "").rsplit(".", 1)[-1]
    if spawner == "gather":
        word: Optional[Word] = _gathered(call)
        suffix = "future"
    else:
        word = _word(call, spawner)
        suffix = TASK
    if word is None:
        return Word(TASK)
    name = _handle(word.word, suffix)
    if keyword.iskeyword(name) or not name.isidentifier():
        return Word(TASK)
    qualified = _handle(word.qualified, suffix) if word.qualified else None
    if qualified is not None and (keyword.iskeyword(qualified) or not qualified.isidentifier()):
        qualified = None
    return Word(name, qualified)
