"""The documents the editor has open, as the server holds them: their text as
the editor has it (not the file on disk), changed by the editor's edits, and
positions in the editor's units.

LSP counts lines as Python's universal newlines do (``\\n``, ``\\r\\n`` and
``\\r`` end a line; a form feed does not) and columns in the code units of the
position encoding agreed at start (UTF-16 unless the editor offers UTF-8 or
UTF-32); the analysis counts columns in characters (``Finding.char_col``) or
UTF-8 bytes (``ast``).  Everything here is in LSP's lines, so a document with a
form feed or a line separator (which ``str.splitlines`` would split on) keeps
its line numbers.  No LSP library is needed here.
"""
from __future__ import annotations

import difflib
import io
from typing import List, Optional, Tuple

__all__ = ["Document", "split_lsp_lines", "units", "line_edits"]

UTF8, UTF16, UTF32 = "utf-8", "utf-16", "utf-32"


def split_lsp_lines(text: str) -> List[str]:
    """The lines of ``text`` with their own line ends, as LSP counts them."""
    return io.StringIO(text, newline="").readlines()


def units(text: str, encoding: str) -> int:
    """How many code units of ``encoding`` the text takes."""
    if encoding == UTF32 or text.isascii():
        return len(text)
    if encoding == UTF8:
        return len(text.encode("utf-8", "surrogatepass"))
    return len(text.encode("utf-16-le", "surrogatepass")) // 2


def _content(line: str) -> str:
    return line.rstrip("\r\n")


class Document:
    """One open document: its text, version and path (None for a document
    that is not a file: an unsaved buffer, a diff's side)."""

    def __init__(self, uri: str, text: str, version: Optional[int], path: Optional[str],
                 encoding: str = UTF16) -> None:
        self.uri = uri
        self.path = path
        self.version = version
        self.encoding = encoding
        self._text = text
        self._lines: Optional[List[str]] = None
        self._starts: Optional[List[int]] = None

    @property
    def text(self) -> str:
        return self._text

    @property
    def lines(self) -> List[str]:
        if self._lines is None:
            self._lines = split_lsp_lines(self._text)
        return self._lines

    def _line_starts(self) -> List[int]:
        if self._starts is None:
            starts = [0]
            for line in self.lines:
                starts.append(starts[-1] + len(line))
            self._starts = starts
        return self._starts

    # ------------------------------------------------------------ positions
    def char_index(self, line: int, character: int) -> int:
        """The character index in line ``line`` of a column in the editor's
        units (past the end of the line: its end, as LSP says)."""
        if not 0 <= line < len(self.lines):
            return 0
        content = _content(self.lines[line])
        if self.encoding == UTF32 or content.isascii():
            return max(0, min(character, len(content)))
        count = 0
        for index, char in enumerate(content):
            if count >= character:
                return index
            count += units(char, self.encoding)
        return len(content)

    def offset(self, line: int, character: int) -> int:
        """The offset in the text of an editor's position (a line past the
        last one: the end of the text)."""
        if line >= len(self.lines):
            return len(self._text)
        return self._line_starts()[max(line, 0)] + self.char_index(line, character)

    def position(self, line: int, char: int) -> Tuple[int, int]:
        """An editor's position (line, column in its units) for a character
        index in a line, kept within the document."""
        if line >= len(self.lines):
            return self.end()
        line = max(line, 0)
        content = _content(self.lines[line])
        return line, units(content[: max(0, min(char, len(content)))], self.encoding)

    def end(self) -> Tuple[int, int]:
        """The position of the end of the text."""
        lines = self.lines
        if not lines:
            return 0, 0
        last = lines[-1]
        if last.endswith(("\n", "\r")):
            return len(lines), 0
        return len(lines) - 1, units(last, self.encoding)

    def line_start(self, line: int) -> Tuple[int, int]:
        """The position of the start of line ``line`` (past the last line: the end)."""
        return (line, 0) if line < len(self.lines) else self.end()

    # -------------------------------------------------------------- changes
    def change(self, start: Optional[Tuple[int, int]], end: Optional[Tuple[int, int]], text: str) -> None:
        """One edit of the editor's: the text between two of its positions
        replaced (no positions: the whole text)."""
        if start is None or end is None:
            self._text = text
        else:
            begin = self.offset(*start)
            stop = max(begin, self.offset(*end))
            self._text = self._text[:begin] + text + self._text[stop:]
        self._lines = None
        self._starts = None


def line_edits(old: str, new: str) -> List[Tuple[int, int, str]]:
    """Edits that turn ``old`` into ``new``, whole lines at a time: (first
    line, line after the last, new text), lines of ``old`` as LSP counts them.
    A fix inserts and changes a few lines; the lines it leaves alone are not
    part of any edit, so the editor keeps its marks, folds and cursor there."""
    a, b = split_lsp_lines(old), split_lsp_lines(new)
    head = 0
    while head < len(a) and head < len(b) and a[head] == b[head]:
        head += 1
    tail = 0
    while tail < len(a) - head and tail < len(b) - head and a[-1 - tail] == b[-1 - tail]:
        tail += 1
    middle_a, middle_b = a[head:len(a) - tail], b[head:len(b) - tail]
    edits: List[Tuple[int, int, str]] = []
    # difflib's heuristic for lines met everywhere (blank lines, "else:") keeps
    # it near linear on a big file; the edits it gives are right all the same
    matcher = difflib.SequenceMatcher(None, middle_a, middle_b)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag != "equal":
            edits.append((head + i1, head + i2, "".join(middle_b[j1:j2])))
    return edits
