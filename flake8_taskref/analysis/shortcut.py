"""The text shortcut: which files, and which functions in them, can matter.

Every finding needs a task spawn (or a shield), and each spawner is spelled in the
file at least once: in its import or at the call.  A file that does not name one
where it can spawn (see below) is skipped without looking at its tree: the
``flake8-taskref`` command does not even parse it.  In the other files, of the
functions defined at module or class level:

* the body is entered if its lines hold a word that can *spawn* (the spawner
  words, aliases of imported spawners) where it can spawn: followed by what a
  call, an argument or an import can be followed by, not a ``def``'s name, and
  for ``gather`` a call that is not awaited at once (``_used_at``);
* else, it is entered if it holds a *loop* word (in a file that calls a loop
  method that spawns: loop factories, loop names, loop annotations, module and
  class names that hold a loop) and names an attribute a loop spawn method is
  called on (``self.io`` in ``self.io.create_task(...)``): all such a function
  can add is that the attribute holds a loop;
* else it is not entered: it cannot spawn, cannot make a receiver a loop that
  matters, and cannot capture another function's locals.  With TRF006 on, a
  function that names a collection a task may have been added to is entered
  after all: it may prune the collection (remove from it, replace it, pass its
  ``discard`` on) or drain it at exit, and each of those names it.

Decorators and default values run where the function is defined: they are
visited there if their lines hold a word that can spawn (the aliases imported
above them included).

The words are searched in the text as written: an identifier that Python
normalises (``create_taſk`` is ``create_task`` to the parser) or a string
annotation spelled with escapes or split in parts is not seen (see
docs/performance.md).
"""
from __future__ import annotations

import re
import unicodedata
from bisect import bisect_left
from typing import Dict, Iterable, Iterator, List, Optional, Sequence, Set, Tuple

from flake8_taskref.analysis.names import LOOP_SPAWN_METHODS
from flake8_taskref.analysis.options import Options

# The file test's tokens; matched as whole words, they also make a function hot
# because it may spawn.
SPAWN_TOKENS = ("create_task", "ensure_future", "Task", "gather", "shield", "run_coroutine_threadsafe")
# Words that make a function hot because it may make an attribute hold an event
# loop.  A loop matters only as the receiver of a loop method that spawns, so
# these are hot only in a file whose text holds such a method.
LOOP_WORDS = ("get_running_loop", "get_event_loop", "new_event_loop")
# Parts of words: annotations (``AbstractEventLoop``).  Loop words too.
LOOP_PARTS = ("EventLoop",)
# Most loop words hold this: one scan finds them all.
ANCHOR = "loop"
_WORD_CHAR = re.compile(r"\w")
_WORD_END = re.compile(r"\w*")
# What can follow a spawner's name where the analysis can take it for one: a call
# or an argument (``(``, ``,``, ``)``), an import (``as``, ``,``, the line's end),
# or a line break inside brackets (the line's end, ``\``, a comment).  Other uses
# (``# Task state``, ``"Task {key}"``, ``"gather": ...``) cannot spawn.
_USED_AFTER = re.compile(r"[ \t\f]*(?:[(),\n\\#]|as\b|$)")
# ``gather`` spawns only as a call whose future is not awaited at once: an
# awaited ``gather`` finishes what it wraps, and ``self.gather`` passed on is no
# spawner.  Cold: ``await asyncio.gather(`` and an attribute ``.gather`` that is
# not called.  (Not when a configured spawner's name is ``gather``.)
GATHER = "gather"
_CALLED_AFTER = re.compile(r"[ \t\f]*(?:[(\n\\#]|$)")
_AWAITED_BEFORE = re.compile(r"\bawait[ \t\f]+[\w.]*$")
# ``lines_clearing``: what follows the attribute's name in ``x.attr = None`` (an annotation too)
_CLEARS = re.compile(r"[ \t\f]*(?::[^=\n]*)?=[ \t\f]*None\b")


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


def _stores(text: str, end: int) -> bool:
    """Is ``text[end:]`` the rest of an assignment target: ``=`` (not ``==``) or
    ``:`` after spaces, ``)``, line continuations and comments (a dict or a slice
    matches too: entering more is safe)?"""
    while end < len(text):
        char = text[end]
        if char == "#":
            newline = text.find("\n", end)
            end = len(text) if newline < 0 else newline
        elif char in " \t\f\v\\\n\r)":
            end += 1
        else:
            return char == ":" or (char == "=" and text[end + 1:end + 2] != "=")
    return False


def _after_dot(text: str, at: int) -> bool:
    """Is ``text[at:]`` an attribute: a ``.`` before it, past spaces, line
    continuations and line ends (and the comment ending a line before: from its
    first ``#``, which may be in a string; then more lines are taken as stores,
    which is safe)?"""
    before = at - 1
    while before >= 0:
        char = text[before]
        if char == ".":
            return True
        if char == "\n":
            line_start = text.rfind("\n", 0, before) + 1
            comment = text.find("#", line_start, before)
            before = comment - 1 if comment >= 0 else before - 1
        elif char in " \t\f\v\\\r":
            before -= 1
        else:
            return False
    return False


def _used_at(text: str, start: int, gather_rules: bool = True) -> bool:
    """Can the word at ``start`` be a spawner as the analysis reads it: followed
    by what a call, an argument or an import can be followed by, not the name of
    a ``def``, and for ``gather`` a call that is not awaited at once?"""
    end = _WORD_END.match(text, start).end()  # type: ignore[union-attr]
    if not _USED_AFTER.match(text, end):
        return False
    line_start = text.rfind("\n", 0, start) + 1
    if gather_rules and end - start == len(GATHER) and text.startswith(GATHER, start):
        if text[start - 1] == "." and not _CALLED_AFTER.match(text, end):
            return False
        if _AWAITED_BEFORE.search(text, line_start, start):
            return False
    before = text[line_start:start].rstrip()
    is_def = before.endswith("def") and (len(before) == 3 or not _WORD_CHAR.match(before, len(before) - 4))
    return not is_def


def holds_word(text: str, word: str) -> bool:
    """Does ``text`` hold ``word`` as a whole word?"""
    return next(_finds(text, word, True), -1) >= 0


def names_a_spawner(data: bytes, options: Options) -> bool:
    """``may_spawn``'s first test on the bytes of a file that decodes as UTF-8
    (or, failing that, Latin-1): False when its text cannot hold a spawner's
    name, so that a file can be passed over before it is decoded.  In both
    encodings an ASCII word is the same bytes wherever it is; a configured name
    that is not ASCII is left to ``may_spawn``."""
    for token in spawn_tokens(options):
        if not token.isascii() or token.encode("ascii") in data:
            return True
    return False


def may_spawn(text: str, options: Options) -> bool:
    """Can the file contain anything we report?  Only if it names a spawner (or
    ``shield``) as a whole word where it can spawn (``_used_at``), the test that
    makes a function's lines hot.  The module and class level are analysed
    whatever their text, but what spawns there is spelled as it is in a function:
    a file without such a place has no spawn the analysis can see, and so no
    finding.  The line ends may be any of "\n", "\r\n" and "\r"."""
    return names_any(text, spawn_tokens(options), GATHER not in options.extra_tokens)


def spawn_tokens(options: Options) -> Tuple[str, ...]:
    """The names that make a line hot whatever the project: asyncio's spawners
    and the configured ones (the project's words among them, once known)."""
    return (*SPAWN_TOKENS, *options.extra_tokens)


def names_any(text: str, words: Iterable[str], gather_rules: Optional[bool] = None) -> bool:
    """Does ``text`` name one of ``words`` where it can spawn (``_used_at``)?
    ``gather_rules``: whether ``gather`` is asyncio's (by default: unless it is
    one of ``words``)."""
    found = [word for word in words if word in text]
    if not found:  # the quick test: ``in`` is a C scan of the text per word
        return False
    if "\r" in text:  # lines end in "\n" for ``_used_at``, as the parser counts them
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    if gather_rules is None:
        gather_rules = GATHER not in found
    return any(_used_at(text, at, gather_rules) for word in found for at in _finds(text, word, True))


class _Words:
    """Hot words of one kind, parts of words, and (once asked for) the numbers of
    the lines that hold them."""

    __slots__ = ("words", "parts", "numbers")

    def __init__(self, words: Iterable[str], parts: Iterable[str]) -> None:
        self.words = set(words)
        self.parts = set(parts)
        self.numbers: Optional[List[int]] = None

    def covers(self, word: str) -> bool:
        """Are the places of ``word`` found already (it is a word, or holds a part)?"""
        return word in self.words or any(part in word for part in self.parts)


class HotLines:
    """Answers "does this range of lines hold a hot word?" for one file, for the
    two kinds of hot words: those that can spawn, and those that can make an
    attribute hold a loop.

    The lines that hold the words of a kind are found with ``str.find`` per word
    the first time they are asked for; the lines of words added after that (an
    alias imported further down) are added to them."""

    def __init__(self, lines: Sequence[str], options: Options, text: Optional[str] = None) -> None:
        self.text = "".join(lines) if text is None else text
        self._identifiers: Optional[str] = None  # the text in NFKC, once asked (``lines_storing``)
        self._memo: Dict[Tuple[int, str], List[int]] = {}  # (how, word): its places (``_at``)
        self.spawning = _Words(spawn_tokens(options), ())
        self._gather_rules = GATHER not in options.extra_tokens
        if any(method in self.text for method in LOOP_SPAWN_METHODS):
            self.looping = _Words(LOOP_WORDS, LOOP_PARTS)
            self.looping.words.update(options.loop_names)
        else:
            self.looping = _Words((), ())

    def add_aliases(self, aliases: Iterable[Tuple[str, str]]) -> None:
        """Import aliases, as (alias, dotted name imported): the alias of a name
        that is a hot word (``from asyncio import create_task as spawn``) is a hot
        word of the same kind.  What a name stands for is decided by its last
        part (``asyncio.tasks.create_task`` is ``asyncio.create_task``)."""
        spawning: List[str] = []
        looping: List[str] = []
        for alias, dotted in aliases:
            name = dotted.rpartition(".")[2]
            if alias != name:
                if self.spawning.covers(name):
                    spawning.append(alias)
                if self.looping.covers(name):
                    looping.append(alias)
        self.add_words(spawning, looping)

    def add_words(self, words: Iterable[str], loop_words: Iterable[str] = ()) -> None:
        """Names this module makes hot: aliases of spawners; loop variables and
        aliases of loop factories."""
        for kind, more in ((self.spawning, words), (self.looping, loop_words)):
            new = {word for word in more if not kind.covers(word)}
            if new:
                kind.words |= new
                if kind.numbers is not None:  # found already: add the new words' lines
                    more_lines = self._hot_lines(new, set(), kind is self.spawning)
                    kind.numbers = sorted(set(kind.numbers).union(more_lines))

    def spawn_lines(self) -> List[int]:
        """The sorted numbers of the lines that hold a word that can spawn."""
        return self._lines(self.spawning)

    def any_between(self, first: int, last: int) -> bool:
        """Do the lines from ``first`` to ``last`` hold a word that can spawn?"""
        return self.between(self._lines(self.spawning), first, last)

    def loop_between(self, first: int, last: int) -> bool:
        """Do the lines from ``first`` to ``last`` hold a loop word?"""
        return self.between(self._lines(self.looping), first, last)

    @staticmethod
    def between(lines: List[int], first: int, last: int) -> bool:
        """Does the sorted list ``lines`` hold a number from ``first`` to ``last``?"""
        index = bisect_left(lines, first)
        return index < len(lines) and lines[index] <= last

    def lines_holding(self, words: Iterable[str]) -> List[int]:
        """The numbers of the lines that hold one of ``words`` as a whole word."""
        return self._line_numbers([at for word in words for at in self._at(0, word)])

    def lines_naming(self, words: Iterable[str]) -> List[int]:
        """The numbers of the lines that hold one of ``words`` as a whole word,
        read as Python reads identifiers (NFKC)."""
        return self._line_numbers([at for word in words for at in self._at(1, word)], self._nfkc())

    def _at(self, how: int, word: str) -> List[int]:
        """The places of a whole word in the text (0), in its NFKC form (1), or where
        it may be an attribute stored (2), found once (the entering asks again)."""
        found = self._memo.get((how, word))
        if found is None:
            text = self._nfkc() if how else self.text
            found = [at for at in _finds(text, word, True)
                     if how < 2 or (_after_dot(text, at) and _stores(text, at + len(word)))]
            self._memo[(how, word)] = found
        return found

    def _nfkc(self) -> str:
        text = self._identifiers
        if text is None:  # Python reads identifiers in NFKC (``ｔ`` is ``t``)
            text = self.text if self.text.isascii() else unicodedata.normalize("NFKC", self.text)
            self._identifiers = text  # the same lines: none ends in another
        return text

    def lines_storing(self, attrs: Iterable[str]) -> List[int]:
        """The numbers of the lines that may store an attribute of one of these
        names (``x.attr =``, ``x.attr: T = ...``; not ``==``), read as Python
        reads identifiers (NFKC), across comments and line ends."""
        return self._line_numbers([at for attr in attrs for at in self._at(2, attr)], self._nfkc())

    def lines_clearing(self, attrs: Iterable[str]) -> List[int]:
        """The numbers of the lines that may set an attribute of one of these names
        to ``None`` (``x.attr = None``, ``x.attr: T = None``): ``lines_storing``'s,
        where ``None`` is what is stored."""
        text = self._nfkc()
        return self._line_numbers(
            [at for attr in attrs for at in self._at(2, attr) if _CLEARS.match(text, at + len(attr))], text)

    def _places(self, literals: Iterable[str], whole_word: bool) -> List[int]:
        text = self.text
        return [at for literal in literals for at in _finds(text, literal, whole_word)]

    def _line_numbers(self, places: List[int], text: Optional[str] = None) -> List[int]:
        """The sorted numbers of the lines holding these offsets of the text (or
        of ``text``).  Lines are counted by their "\\n" ends, a count from one
        place to the next: as the parser counts them, for flake8's lines (read
        with universal newlines; the API turns "\\r" ends into "\\n" first)."""
        count = (self.text if text is None else text).count
        numbers: List[int] = []
        line = 1
        previous = 0
        for at in sorted(places):
            line += count("\n", previous, at)
            previous = at
            if not numbers or numbers[-1] != line:
                numbers.append(line)
        return numbers

    def _lines(self, kind: _Words) -> List[int]:
        numbers = kind.numbers
        if numbers is None:
            numbers = kind.numbers = self._hot_lines(kind.words, kind.parts, kind is self.spawning)
        return numbers

    def _hot_lines(self, words: Set[str], parts: Set[str], used: bool = False) -> List[int]:
        """The lines holding the words or parts; with ``used`` (spawner words),
        only where the word can be a spawner (``_used_at``)."""
        text = self.text
        found = self._places(parts, False)
        found += self._places((word for word in words if ANCHOR not in word), True)
        # The loop words share one scan for "loop": each of its places is
        # tried against the words that hold it.
        shared = [
            (word, inner) for word in words if ANCHOR in word for inner in _finds(word, ANCHOR, False)
        ]
        if shared:
            startswith = text.startswith
            for at in _finds(text, ANCHOR, False):
                for word, inner in shared:
                    start = at - inner
                    if start >= 0 and startswith(word, start) and _word_at(text, start, start + len(word)):
                        found.append(start)
                        break
        if used:
            gather_rules = self._gather_rules
            found = [at for at in found if _used_at(text, at, gather_rules)]
        return self._line_numbers(found)


def words_named(text: str, words: Iterable[str]) -> List[str]:
    """The sorted ``words`` that ``text`` holds as whole words."""
    return sorted(word for word in words if word in text and holds_word(text, word))
