"""Reading a file of the project as flake8 reads it: its bytes (a path that is
not a regular file is refused), their encoding (a coding cookie or a byte-order
mark, UTF-8 by default, latin-1 as the last resort; what Python itself refuses)
and its lines (universal newlines, no byte-order mark)."""
from __future__ import annotations

import ast
import codecs
import gc
import io
import os
import sys
from contextlib import contextmanager
from typing import Iterator, List, Optional

from flake8_taskref.project.files import special_kind

__all__ = [
    "NotAFile", "read_bytes", "plain_utf8", "decode", "declared_text", "encoding_problem", "python_refuses",
    "split_lines", "collector_paused",
]


class NotAFile(Exception):
    """A path that is not a regular file (a named pipe, a device, a socket):
    skipped, never read (the message says what it is)."""


# A named pipe opens without waiting for a writer, a terminal does not become ours.
_OPEN_FLAGS = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)


def read_bytes(path: str) -> bytes:
    """The file's bytes (``-``: standard input).  ``os.read`` of the size
    ``fstat`` gives costs a third less than ``open().read()``, which builds a
    buffered file object around the same calls; should it fail, ``open()`` says
    why in flake8's words (E902: the error names the file).  A path that is not
    a regular file is ``NotAFile``, found by the ``fstat`` before any read (the
    walk has left out those it saw; this one was named, or is a link to one)."""
    if path == "-":
        return sys.stdin.buffer.read()
    try:
        fd = os.open(path, _OPEN_FLAGS)
        try:
            status = os.fstat(fd)
            kind = special_kind(status.st_mode)
            if kind is not None:
                raise NotAFile(kind)
            data = os.read(fd, status.st_size + 1)
            if data:  # whatever is left, if the file grew
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
    text = declared_text(data)
    return data.decode("latin-1") if text is None else text


def declared_text(data: bytes) -> Optional[str]:
    """The text in the encoding the file declares (its coding cookie, a UTF-8
    byte-order mark, UTF-8 by default); None when the cookie names no codec
    or the bytes are not in that encoding (``encoding_problem`` says which)."""
    try:
        if plain_utf8(data):
            return data.decode("utf-8")
        import tokenize  # only for a byte-order mark or a coding cookie

        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
        return data.decode(encoding)
    except (SyntaxError, UnicodeError, LookupError):
        return None


def encoding_problem(data: bytes) -> str:
    """Why ``declared_text`` gives no text, in words ("" when it does)."""
    import tokenize

    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
    except SyntaxError as exc:  # no such codec, a byte-order mark with another cookie...
        message = str(exc.args[0] if exc.args else exc)
        if not message.startswith("invalid or missing encoding declaration"):
            return message
        encoding = "utf-8"  # ... or a first line that is not UTF-8, which is the default
    skip = 0
    if encoding in ("utf-8", "utf-8-sig") and data.startswith(codecs.BOM_UTF8):  # the mark, then UTF-8
        encoding, skip = "utf-8", len(codecs.BOM_UTF8)
    try:
        data[skip:].decode(encoding)
    except UnicodeDecodeError as exc:
        start = skip + exc.start
        line = data.count(b"\n", 0, start) + 1
        return f"its bytes are not {encoding} (byte 0x{data[start]:02x} on line {line})"
    except (UnicodeError, LookupError) as exc:  # pragma: no cover - detect_encoding checks the codec
        return str(exc)
    return ""


def python_refuses(data: bytes) -> Optional[SyntaxError]:
    """For a file whose declared encoding fails (``declared_text`` is None):
    the SyntaxError Python raises when it compiles its bytes (an unknown
    codec, bytes that are not in the encoding where Python decodes them), or
    None where Python takes it (bytes that are not UTF-8 only in a comment):
    then the file is read as flake8 reads it, in latin-1."""
    try:
        compile(data, "<file>", "exec", ast.PyCF_ONLY_AST, dont_inherit=True)
    except SyntaxError as exc:
        return exc
    except (ValueError, RecursionError, MemoryError):  # the parse of the text says what (E999)
        return None
    return None


def split_lines(data: bytes, text: Optional[str] = None) -> List[str]:
    """Text lines as flake8 reads a file: universal newlines, no byte-order mark
    (``text``: the bytes decoded already); a UTF-8 mark read as latin-1, where
    the file is not UTF-8 after it, is taken off as flake8 takes it off."""
    lines = io.StringIO(decode(data) if text is None else text, newline=None).readlines()
    if lines and lines[0][:1] == "\ufeff":
        lines[0] = lines[0][1:]
    elif lines and lines[0][:3] == "\xef\xbb\xbf":
        lines[0] = lines[0][3:]
    return lines


@contextmanager
def collector_paused() -> Iterator[None]:
    """The cyclic garbage collector paused while one file is parsed, checked and
    fixed, or while the project's index runs.  A file's tree and the analysis's
    records, the index's summaries and the trees it keeps are many objects
    without cycles, freed by their reference counts; a collection while they
    live walks all of them, again at each generation, and the parser's
    allocations set collections off (measured on the corpus: a quarter of the
    time of parsing and checking its files; in the index, a 14 kB file's parse
    took 0.5 s).  Whatever cycles are left are collected after it."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()
