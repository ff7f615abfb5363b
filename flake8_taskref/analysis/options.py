"""Options: their flags (registered with flake8 by ``plugin.py``, read by the
command from its command line and config files), validation, and the typed,
frozen result."""
from __future__ import annotations

import argparse
import re
from typing import Callable, FrozenSet, Iterable, List, NamedTuple, Optional, Tuple

DEFAULT_LOOP_NAMES: Tuple[str, ...] = ("loop", "_loop", "event_loop", "_event_loop")

_SPLIT = re.compile(r"[\s]+")
# The opt-in rules: reported only where the user names them in full (``opted_in``).
OPT_IN = "TRF006"
OPT_IN_GATHERS = "TRF008"
OPT_IN_WAITS = "TRF010"


class OptionValueError(ValueError):
    """An option value that cannot be used; the message names option and value."""


class Options(NamedTuple):
    """Everything the analysis may be told by the user, validated once.  (A
    named tuple, not a dataclass: importing ``dataclasses`` imports ``inspect``,
    a few milliseconds of every run of the command.)"""

    spawners: FrozenSet[str] = frozenset()
    loop_names: FrozenSet[str] = frozenset(DEFAULT_LOOP_NAMES)
    timeouts: FrozenSet[str] = frozenset()
    # Last dotted component of every extra spawner: the text shortcut looks for them.
    extra_tokens: Tuple[str, ...] = ()
    # Is TRF006 selected (named in full: ``opted_in``)?  If not, long-lived task
    # collections are not followed.
    collections: bool = True
    # Is TRF008 selected (named in full)?  If not, the failures of gathers are
    # not followed.
    gathers: bool = True
    # Is TRF010 selected (named in full)?  If not, a cancellation at asyncio.wait() is not followed.
    waits: bool = True
    # The names of every spawner of the project's other modules, when the
    # project's index has found them (also among ``extra_tokens``): a call of
    # another module's function by any other name returns no new task.
    words: Optional[FrozenSet[str]] = None

    @classmethod
    def build(
        cls,
        spawners: Iterable[str] = (),
        loop_names: Iterable[str] = DEFAULT_LOOP_NAMES,
        timeouts: Iterable[str] = (),
        collections: bool = True,
        gathers: bool = True,
        waits: bool = True,
    ) -> "Options":
        spawner_set = frozenset(spawners)
        return cls(
            spawners=spawner_set,
            loop_names=frozenset(loop_names),
            timeouts=frozenset(timeouts),
            extra_tokens=tuple(sorted({name.rsplit(".", 1)[-1] for name in spawner_set})),
            collections=collections,
            gathers=gathers,
            waits=waits,
        )


def split_items(option: str, raw: str) -> List[str]:
    """Split a comma (or newline) separated value; an empty item is an error.

    A single trailing comma is accepted, as in multi-line config lists.
    """
    text = raw.strip()
    if not text:
        return []
    pieces = text.split(",")
    if pieces[-1].strip() == "":
        pieces.pop()
    items: List[str] = []
    for piece in pieces:
        words = [w for w in _SPLIT.split(piece.strip()) if w]
        if not words:
            raise OptionValueError(f"{option}: empty item in {raw.strip()!r}")
        items.extend(words)
    return items


def _check_dotted(option: str, items: List[str]) -> List[str]:
    for item in items:
        if not all(part.isidentifier() for part in item.split(".")):
            raise OptionValueError(f"{option}: {item!r} is not a dotted name (like pkg.module.func)")
    return items


def _check_identifiers(option: str, items: List[str]) -> List[str]:
    for item in items:
        if not item.isidentifier():
            raise OptionValueError(f"{option}: {item!r} is not a name (like loop or _loop)")
    return items


# The plugin's options, defined once: flake8 registers them (``plugin.register``) and
# the ``flake8-taskref`` command reads the same names from its command line and
# config files.  (flag, default, help)
FLAGS: Tuple[Tuple[str, str, str], ...] = (
    (
        "--taskref-spawners",
        "",
        "Comma-separated dotted names of project helpers that return a new asyncio "
        "task and keep no reference to it, e.g. myapp.tasks.fire_and_forget "
        "(default: none).",
    ),
    (
        "--taskref-loop-names",
        ",".join(DEFAULT_LOOP_NAMES),
        "Comma-separated names that hold an event loop; X.create_task() is a "
        "spawn when X's last name is one of them "
        f"(default: {','.join(DEFAULT_LOOP_NAMES)}).",
    ),
    (
        "--taskref-timeouts",
        "",
        "Comma-separated dotted names of extra timeout helpers, used as "
        "'[async] with helper(...)' or 'await helper(aw, ...)', "
        "e.g. async_timeout.timeout (default: none).",
    ),
)


def from_namespace(
    options: argparse.Namespace, is_selected: Optional[Callable[[argparse.Namespace, str], bool]] = None,
) -> Options:
    """Validate the parsed flake8 options; raises OptionValueError.
    ``is_selected``: flake8's decision whether a code is reported (``selected``
    by default; the command has its own copy of flake8's rule)."""
    spawners = _check_dotted(
        "--taskref-spawners", split_items("--taskref-spawners", options.taskref_spawners)
    )
    loop_names = _check_identifiers(
        "--taskref-loop-names", split_items("--taskref-loop-names", options.taskref_loop_names)
    )
    timeouts = _check_dotted(
        "--taskref-timeouts", split_items("--taskref-timeouts", options.taskref_timeouts)
    )
    return Options.build(
        spawners, loop_names, timeouts, opted_in(options, OPT_IN, is_selected),
        opted_in(options, OPT_IN_GATHERS, is_selected), opted_in(options, OPT_IN_WAITS, is_selected),
    )


def opted_in(
    options: argparse.Namespace, code: str,
    is_selected: Optional[Callable[[argparse.Namespace, str], bool]] = None,
) -> bool:
    """Is the opt-in ``code`` named in full in ``select`` or ``extend-select`` (a
    prefix such as ``TRF`` or ``TRF0`` selects the default rules only, as
    flake8-bugbear does for its opinionated B9 codes), and not ignored?"""
    named = [*(getattr(options, "select", None) or ()), *(getattr(options, "extend_select", None) or ())]
    return any(item.strip() == code for item in named) and (is_selected or selected)(options, code)


def selected(options: argparse.Namespace, code: str) -> bool:
    """Will flake8 report ``code`` with these options (select/ignore and their
    extend- and default forms)?  Unknown flake8 internals: assume it will."""
    try:
        from flake8.style_guide import Decision, DecisionEngine

        return bool(DecisionEngine(options).decision_for(code) == Decision.Selected)
    except Exception:  # pragma: no cover - a flake8 without the decision engine
        return True
