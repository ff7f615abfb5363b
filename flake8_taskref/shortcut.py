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
from typing import Iterable, Optional, Sequence, Tuple

from flake8_taskref.options import Options

SPAWN_TOKENS = ("create_task", "ensure_future", "Task", "gather", "shield")
# Words, matched as whole words, that make a function hot: it may spawn, or make
# a name or attribute hold an event loop.
HOT_WORDS = (
    "create_task", "ensure_future", "Task", "gather", "shield",
    "get_running_loop", "get_event_loop", "new_event_loop",
)
# Parts of words: annotations (``AbstractEventLoop``).
HOT_PARTS = ("EventLoop",)
# What prunes a task collection (TRF006), but for reassignment, which the rules
# read from the text of the functions not entered.  Hot only when TRF006 is on.
PRUNE_WORDS = (
    "discard", "remove", "pop", "popitem", "popleft", "clear", "difference_update",
    "intersection_update", "symmetric_difference_update", "__delitem__", "del",
)
PRUNE_PARTS = ("-=", "&=", "^=")


_TASK_WORD = re.compile(r"\bTask\b")


def may_spawn(text: str, options: Options) -> bool:
    """Can the file contain anything we report?"""
    for token in SPAWN_TOKENS:
        if token in text and (token != "Task" or _TASK_WORD.search(text)):
            return True
    for token in options.extra_tokens:
        if token in text:
            return True
    return False


@lru_cache(maxsize=8)
def _patterns(options: Options) -> "Tuple[re.Pattern[str], re.Pattern[str]]":
    """(parts, words): a part matches anywhere, a word as a whole word."""
    words = set(HOT_WORDS) | set(options.extra_tokens) | set(options.loop_names)
    parts = set(HOT_PARTS)
    if options.collections:
        words |= set(PRUNE_WORDS)
        parts |= set(PRUNE_PARTS)
    return _literals(parts, ""), _literals(words, r"\b")


def _literals(literals: Iterable[str], suffix: str) -> "re.Pattern[str]":
    # Every alternative starts with a literal, so that the regex engine can skip
    # ahead by first character; a word's leading boundary is checked by hand.
    return re.compile("|".join(re.escape(item) + suffix for item in sorted(literals)))


_WORD_CHAR = re.compile(r"\w")


class HotLines:
    """Answers "does this range of lines hold a hot word?" for one file."""

    def __init__(self, lines: Sequence[str], options: Options, text: Optional[str] = None) -> None:
        self.lines = lines
        self.text = "".join(lines) if text is None else text
        # Offsets of line starts: line n (1-based) spans offsets[n-1]:offsets[n].
        self.offsets = list(accumulate(map(len, lines), initial=0))
        self.parts, self.words = _patterns(options)

    def is_hot_name(self, dotted: str) -> bool:
        """Does an imported name hold a hot word (so that its alias is hot)?"""
        return self._words_in(dotted, 0, len(dotted)) or self.parts.search(dotted) is not None

    def add_words(self, words: Iterable[str]) -> None:
        """Names this module makes hot: aliases of spawners, loop variables."""
        extra = set(words)
        if extra:
            self.words = re.compile(self.words.pattern + "|" + _literals(extra, r"\b").pattern)

    def any_between(self, first: int, last: int) -> bool:
        offsets = self.offsets
        end = offsets[min(last, len(offsets) - 1)]
        start = offsets[min(first, len(offsets)) - 1]
        return self.parts.search(self.text, start, end) is not None or self._words_in(
            self.text, start, end
        )

    def _words_in(self, text: str, start: int, end: int) -> bool:
        search = self.words.search
        match = search(text, start, end)
        while match is not None:
            at = match.start()
            if at == 0 or not _WORD_CHAR.match(text, at - 1):
                return True
            match = search(text, at + 1, end)
        return False

    def text_of(self, first: int, last: int) -> str:
        return "".join(self.lines[first - 1:last])
