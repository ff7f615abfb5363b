"""The text shortcut: which files, and which functions in them, can matter.

Every finding needs a task spawn (or a shield), and each spawner is spelled in the
file at least once: in its import or at the call.  A file without any of those
words is skipped without looking at its tree.  In the other files, a function
defined at module or class level whose lines hold none of the *hot* words (the
spawner words, and the loop words that make a receiver a loop) is not entered:
its body cannot spawn, cannot make a name a loop, and cannot capture another
function's locals.  What such a body could still tell (that it prunes a task
collection, for TRF006) is read from its text by the rules.
"""
from __future__ import annotations

import re
from functools import lru_cache
from itertools import accumulate
from typing import Iterable, Optional, Sequence

from flake8_taskref.options import Options

SPAWN_TOKENS = ("create_task", "ensure_future", "Task", "gather", "shield")
LOOP_TOKENS = ("loop", "Loop")
# What prunes a task collection (TRF006), but for reassignment, which the rules
# read from the text of the functions not entered.
PRUNE_TOKENS = (
    "discard", "remove", "pop", "clear", "_update", "__delitem__", "del ", "-=", "&=", "^=",
)


def may_spawn(text: str, options: Options) -> bool:
    """Can the file contain anything we report?"""
    for token in SPAWN_TOKENS:
        if token in text:
            return True
    for token in options.extra_tokens:
        if token in text:
            return True
    return False


@lru_cache(maxsize=8)
def _pattern(options: Options) -> "re.Pattern[str]":
    words = (
        set(SPAWN_TOKENS) | set(LOOP_TOKENS) | set(PRUNE_TOKENS)
        | set(options.extra_tokens) | set(options.loop_names)
    )
    return re.compile("|".join(re.escape(word) for word in sorted(words, key=len, reverse=True)))


class HotLines:
    """Answers "does this range of lines hold a hot word?" for one file."""

    def __init__(self, lines: Sequence[str], options: Options, text: Optional[str] = None) -> None:
        self.lines = lines
        self.text = "".join(lines) if text is None else text
        # Offsets of line starts: line n (1-based) spans offsets[n-1]:offsets[n].
        self.offsets = list(accumulate(map(len, lines), initial=0))
        self.pattern = _pattern(options)

    def is_hot_name(self, dotted: str) -> bool:
        """Does an imported name hold a hot word (so that its alias is hot)?"""
        return self.pattern.search(dotted) is not None

    def add_words(self, words: Iterable[str]) -> None:
        """Names this module makes hot: aliases of spawners, loop variables."""
        extra = sorted(set(words), key=len, reverse=True)
        if extra:
            self.pattern = re.compile(
                self.pattern.pattern + "|" + "|".join(r"\b" + re.escape(w) + r"\b" for w in extra)
            )

    def any_between(self, first: int, last: int) -> bool:
        offsets = self.offsets
        end = offsets[min(last, len(offsets) - 1)]
        return self.pattern.search(self.text, offsets[min(first, len(offsets)) - 1], end) is not None

    def text_of(self, first: int, last: int) -> str:
        return "".join(self.lines[first - 1:last])
