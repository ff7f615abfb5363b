"""The text shortcut: which files, and which functions in them, can matter.

Every finding needs a task spawn (or a shield), and each spawner is spelled in the
file at least once: in its import or at the call.  A file without any of those
words is skipped without looking at its tree.  In the other files, a function
defined at module or class level whose lines hold none of the *hot* words (the
spawner words, and, in a file that calls a loop method that spawns, the loop
words that make a receiver a loop) is not entered: its body cannot spawn,
cannot make a name a loop that matters, and cannot capture another function's
locals.  With TRF006 on, the prune words are hot too, and a cold function that
names a collection a task was added to is entered after all (it may replace the
collection).
"""
from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from itertools import accumulate
from typing import Iterable, Iterator, List, Optional, Sequence, Set

from flake8_taskref.names import LOOP_SPAWN_METHODS
from flake8_taskref.options import Options

# The file test's tokens; matched as whole words, they also make a function hot
# because it may spawn.
SPAWN_TOKENS = ("create_task", "ensure_future", "Task", "gather", "shield")
# Words that make a function hot because it may make a name or an attribute hold
# an event loop.  A loop matters only as the receiver of a loop method that
# spawns, so these are hot only in a file whose text holds such a method.
LOOP_WORDS = ("get_running_loop", "get_event_loop", "new_event_loop")
# Parts of words: annotations (``AbstractEventLoop``).  Loop words too.
LOOP_PARTS = ("EventLoop",)
# Most loop words hold this: one scan finds them all.
ANCHOR = "loop"
# What prunes a task collection (TRF006), but for reassignment, which is found by
# entering the cold functions that name the collection.  Hot only when TRF006 is on.
PRUNE_WORDS = (
    "discard", "remove", "pop", "popitem", "popleft", "clear", "difference_update",
    "intersection_update", "symmetric_difference_update", "__delitem__", "del",
)
PRUNE_PARTS = ("-=", "&=", "^=")

_WORD_CHAR = re.compile(r"\w")


def _word_at(text: str, at: int, end: int) -> bool:
    """Is ``text[at:end]`` a whole word (no word character on either side)?"""
    return (at == 0 or not _WORD_CHAR.match(text, at - 1)) and not _WORD_CHAR.match(text, end)


def _finds(text: str, literal: str, whole_word: bool) -> Iterator[int]:
    """Offsets of ``literal`` in ``text`` (as a whole word, if asked).  ``str.find``
    is many times faster than a regular expression with alternatives."""
    find = text.find
    size = len(literal)
    at = find(literal)
    while at >= 0:
        if not whole_word or _word_at(text, at, at + size):
            yield at
        at = find(literal, at + 1)


def holds_word(text: str, word: str) -> bool:
    """Does ``text`` hold ``word`` as a whole word?"""
    return next(_finds(text, word, True), -1) >= 0


def may_spawn(text: str, options: Options) -> bool:
    """Can the file contain anything we report?"""
    for token in SPAWN_TOKENS:
        if token in text and (token != "Task" or holds_word(text, token)):
            return True
    return any(token in text for token in options.extra_tokens)


class HotLines:
    """Answers "does this range of lines hold a hot word?" for one file.

    The lines that hold a hot word are found once, with ``str.find`` per word,
    the first time they are asked for (after the module has added its words)."""

    def __init__(self, lines: Sequence[str], options: Options, text: Optional[str] = None) -> None:
        self.lines = lines
        self.text = "".join(lines) if text is None else text
        words = set(SPAWN_TOKENS) | set(options.extra_tokens)
        parts: Set[str] = set()
        if any(method in self.text for method in LOOP_SPAWN_METHODS):
            words |= set(LOOP_WORDS) | set(options.loop_names)
            parts |= set(LOOP_PARTS)
        if options.collections:
            words |= set(PRUNE_WORDS)
            parts |= set(PRUNE_PARTS)
        self.words = words
        self.parts = parts
        self._hot: Optional[List[int]] = None

    def is_hot_name(self, dotted: str) -> bool:
        """Does an imported name hold a hot word (so that its alias is hot)?"""
        return any(part in dotted for part in self.parts) or any(
            holds_word(dotted, word) for word in self.words
        )

    def add_words(self, words: Iterable[str]) -> None:
        """Names this module makes hot: aliases of spawners, loop variables."""
        self.words = self.words | set(words)
        self._hot = None

    def any_between(self, first: int, last: int) -> bool:
        hot = self._hot
        if hot is None:
            hot = self._hot = self._hot_lines()
        return self.between(hot, first, last)

    @staticmethod
    def between(lines: List[int], first: int, last: int) -> bool:
        """Does the sorted list ``lines`` hold a number from ``first`` to ``last``?"""
        index = bisect_left(lines, first)
        return index < len(lines) and lines[index] <= last

    def lines_holding(self, words: Iterable[str]) -> List[int]:
        """The numbers of the lines that hold one of ``words`` as a whole word."""
        return sorted(self._lines_of(words, True, self._offsets()))

    def _offsets(self) -> List[int]:
        # Offsets of line starts: line n (1-based) spans offsets[n-1]:offsets[n].
        return list(accumulate(map(len, self.lines), initial=0))

    def _lines_of(self, literals: Iterable[str], whole_word: bool, offsets: List[int]) -> Set[int]:
        text = self.text
        return {
            bisect_right(offsets, at) for literal in literals for at in _finds(text, literal, whole_word)
        }

    def _hot_lines(self) -> List[int]:
        text = self.text
        offsets = self._offsets()
        found = self._lines_of(self.parts, False, offsets)
        found |= self._lines_of((word for word in self.words if ANCHOR not in word), True, offsets)
        # The loop words share one scan for "loop": each of its places is
        # tried against the words that hold it.
        shared = [
            (word, inner) for word in self.words if ANCHOR in word for inner in _finds(word, ANCHOR, False)
        ]
        if shared:
            startswith = text.startswith
            for at in _finds(text, ANCHOR, False):
                for word, inner in shared:
                    start = at - inner
                    if start >= 0 and startswith(word, start) and _word_at(text, start, start + len(word)):
                        found.add(bisect_right(offsets, at))
                        break
        return sorted(found)
