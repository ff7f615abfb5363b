"""``--diff``: a unified diff in bytes, as ``git diff`` writes it, that ``git
apply`` and ``patch -p1`` take.

* The lines are the file's own bytes: its encoding (a latin-1 file stays
  latin-1), its byte-order mark (on the first line of both sides) and its line
  ends; lines are split at ``\\n`` only, as git and patch split them (a CRLF
  line keeps its ``\\r``), and a last line without one is marked
  ``\\ No newline at end of file``.
* The headers are git's: ``diff --git a/P b/P``, ``--- a/P``, ``+++ b/P``, with
  P relative to the current folder.  A file outside it is named by its absolute
  path without the leading ``/``, as ``git diff --no-index`` names an absolute
  path (apply that diff from ``/``): a ``../`` path is refused by ``git apply``
  ("invalid path") and by ``patch``.  A name with a space ends with a tab on
  the ``---``/``+++`` lines (``patch`` needs it; git writes it); a name with
  control characters, ``"``, ``\\`` or non-ASCII bytes is C-quoted, as git's
  ``core.quotePath`` does.
"""
from __future__ import annotations

import difflib
import os
from typing import List

__all__ = ["render_diff", "git_name"]

_ESCAPES = {7: b"\\a", 8: b"\\b", 9: b"\\t", 10: b"\\n", 11: b"\\v", 12: b"\\f", 13: b"\\r",
            0x22: b'\\"', 0x5C: b"\\\\"}


def git_name(path: str) -> bytes:
    """The name git gives ``path`` in a diff header (without ``a/``)."""
    absolute = os.path.abspath(path)
    try:
        relative = os.path.relpath(absolute)
    except ValueError:  # another drive (Windows)
        relative = os.pardir
    if relative == os.pardir or relative.startswith(os.pardir + os.sep):
        relative = os.path.splitdrive(absolute)[1].lstrip(os.sep + (os.altsep or ""))
    return os.fsencode(relative.replace(os.sep, "/"))


def _quote(name: bytes) -> bytes:
    if not any(byte < 0x20 or byte >= 0x7F or byte in (0x22, 0x5C) for byte in name):
        return name
    out = bytearray(b'"')
    for byte in name:
        if byte in _ESCAPES:
            out += _ESCAPES[byte]
        elif byte < 0x20 or byte >= 0x7F:
            out += b"\\%03o" % byte
        else:
            out.append(byte)
    return bytes(out + b'"')


def _lines(data: bytes) -> List[bytes]:
    parts = data.split(b"\n")
    lines = [part + b"\n" for part in parts[:-1]]
    if parts[-1]:
        lines.append(parts[-1])
    return lines


def render_diff(name: bytes, old: bytes, new: bytes) -> bytes:
    """The diff of one file named ``name`` (see ``git_name``); empty when equal."""
    hunks = list(difflib.diff_bytes(difflib.unified_diff, _lines(old), _lines(new), b"", b""))
    if not hunks:
        return b""
    tab = b"\t" if b" " in name else b""
    a, b = _quote(b"a/" + name), _quote(b"b/" + name)
    out = [b"diff --git %s %s\n--- %s%s\n+++ %s%s\n" % (a, b, a, tab, b, tab)]
    for line in hunks[2:]:  # after difflib's own ---/+++ lines
        out.append(line if line.endswith(b"\n") else line + b"\n\\ No newline at end of file\n")
    return b"".join(out)
