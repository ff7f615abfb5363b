"""A file's text as the fixer edits it: decoded as Python decodes it (its coding
cookie, a UTF-8 byte-order mark), its lines with their own line ends, positions
as ``ast`` gives them (1-based lines, columns in UTF-8 bytes) turned into
offsets in the text, and edits applied from the end so that earlier offsets
hold.  The result is encoded back the same way (same encoding, same mark)."""
from __future__ import annotations

import codecs
import io
import itertools
import tokenize
from typing import List, Tuple

Edit = Tuple[int, int, str]  # (start offset, end offset, new text)


class Source:
    """One file's text, lines and offsets."""

    def __init__(self, data: bytes) -> None:
        self.bom = data.startswith(codecs.BOM_UTF8)
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
        self.encoding = "utf-8" if encoding == "utf-8-sig" else encoding
        text = data.decode(encoding)
        if text.startswith("\ufeff"):
            text = text[1:]
        self.text = text
        # lines as the tokenizer splits them: on \n, \r\n and \r only
        self.lines: List[str] = io.StringIO(text, newline="").readlines()
        self.starts: List[int] = [0, *itertools.accumulate(map(len, self.lines))]
        first = self.lines[0] if self.lines else ""
        self.newline = "\r\n" if first.endswith("\r\n") else "\r" if first.endswith("\r") else "\n"

    def line(self, lineno: int) -> str:
        """Line ``lineno`` (1-based) without its line end."""
        if not 0 < lineno <= len(self.lines):
            return ""
        return self.lines[lineno - 1].rstrip("\r\n")

    def offset(self, lineno: int, col: int) -> int:
        """The text offset of an ``ast`` position (column in UTF-8 bytes)."""
        if lineno > len(self.lines):
            return len(self.text)
        line = self.lines[lineno - 1]
        return self.starts[lineno - 1] + len(line.encode("utf-8")[:col].decode("utf-8", "ignore"))

    def line_start(self, lineno: int) -> int:
        return self.starts[min(lineno - 1, len(self.lines))]

    def line_end(self, lineno: int) -> int:
        """The offset just after line ``lineno``'s line end."""
        return self.starts[min(lineno, len(self.lines))]

    def indent(self, lineno: int) -> str:
        text = self.line(lineno)
        return text[: len(text) - len(text.lstrip(" \t\f"))]

    def apply(self, edits: List[Edit]) -> str:
        """The text with ``edits`` (non-overlapping) made."""
        pieces: List[str] = []
        done = 0
        # in order of position; insertions at one place in the order they were made
        ordered = sorted(enumerate(edits), key=lambda item: (item[1][0], item[1][1], item[0]))
        for _, (start, end, new) in ordered:
            assert start >= done, "overlapping edits"
            pieces += [self.text[done:start], new]
            done = end
        pieces.append(self.text[done:])
        return "".join(pieces)

    def encode(self, text: str) -> bytes:
        """Text as the file was encoded (same encoding, same byte-order mark)."""
        data = text.encode(self.encoding)
        return codecs.BOM_UTF8 + data if self.bom else data
