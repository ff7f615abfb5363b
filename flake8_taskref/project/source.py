"""Reading a file of the project as flake8 reads it: its bytes, their encoding
(a coding cookie or a byte-order mark, UTF-8 by default, latin-1 as the last
resort) and its lines (universal newlines, no byte-order mark)."""
from __future__ import annotations

import io
import os
import sys
from typing import List, Optional

__all__ = ["read_bytes", "plain_utf8", "decode", "split_lines"]


def read_bytes(path: str) -> bytes:
    """The file's bytes (``-``: standard input).  ``os.read`` of the size
    ``fstat`` gives costs a third less than ``open().read()``, which builds a
    buffered file object around the same calls; should it fail, ``open()`` says
    why in flake8's words (E902: the error names the file)."""
    if path == "-":
        return sys.stdin.buffer.read()
    try:
        fd = os.open(path, os.O_RDONLY)
        try:
            data = os.read(fd, os.fstat(fd).st_size + 1)
            if data:  # whatever is left, if the file grew or fstat gave no size (a pipe)
                chunks = [data]
                while True:
                    more = os.read(fd, 1 << 20)
                    if not more:
                        break
                    chunks.append(more)
                data = b"".join(chunks) if len(chunks) > 1 else data
            return data
        finally:
            os.close(fd)
    except OSError:
        pass
    with open(path, "rb") as handle:
        return handle.read()


def plain_utf8(data: bytes) -> bool:
    """Is the file UTF-8 without a byte-order mark or a coding cookie, so that
    ``tokenize.detect_encoding`` would say "utf-8" (or fail on bytes that are
    not UTF-8, which the decoding fails on too)?  Its cookie must be in one of
    the first two lines and spell "coding"."""
    if data[:3] == b"\xef\xbb\xbf":
        return False
    first = data.find(b"\n")
    end = -1 if first < 0 else data.find(b"\n", first + 1)
    return b"coding" not in (data if end < 0 else data[:end])


def decode(data: bytes) -> str:
    """The text as flake8 decodes a file: the encoding of its coding cookie (UTF-8
    by default), latin-1 as the last resort."""
    try:
        if plain_utf8(data):
            return data.decode("utf-8")
        import tokenize  # only for a byte-order mark or a coding cookie

        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
        return data.decode(encoding)
    except (SyntaxError, UnicodeError, LookupError):
        return data.decode("latin-1")


def split_lines(data: bytes, text: Optional[str] = None) -> List[str]:
    """Text lines as flake8 reads a file: universal newlines, no byte-order mark
    (``text``: the bytes decoded already)."""
    lines = io.StringIO(decode(data) if text is None else text, newline=None).readlines()
    if lines and lines[0][:1] == "\ufeff":
        lines[0] = lines[0][1:]
    return lines
