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
* The hunks are those a reviewer expects from git: lines that occur once on
  each side anchor the match (as ``git diff --patience``), difflib matches
  the gaps between them without its "popular line" heuristic (which let a
  repeated ``except Exception as e:`` show as removed and added again), and
  an added or removed block slides down past a line equal to its first (so
  new lines after a ``)`` show after it, as git and GNU diff show them).
"""
from __future__ import annotations

import bisect
import difflib
import os
from typing import Any, Dict, List, Tuple

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


_GAP = 2_000  # lines: a gap without anchors longer than this keeps difflib's heuristic


def _matches(a: List[bytes], b: List[bytes]) -> List[Tuple[int, int, int]]:
    """Matching blocks (i, j, size), in order: patience anchors, difflib between."""
    found: List[Tuple[int, int, int]] = []
    stack = [(0, len(a), 0, len(b))]
    while stack:
        alo, ahi, blo, bhi = stack.pop()
        while alo < ahi and blo < bhi and a[alo] == b[blo]:  # common head
            found.append((alo, blo, 1))
            alo, blo = alo + 1, blo + 1
        while alo < ahi and blo < bhi and a[ahi - 1] == b[bhi - 1]:  # common tail
            ahi, bhi = ahi - 1, bhi - 1
            found.append((ahi, bhi, 1))
        if alo == ahi or blo == bhi:
            continue
        anchors = _anchors(a, alo, ahi, b, blo, bhi)
        if not anchors:
            junk = (ahi - alo) + (bhi - blo) > _GAP
            matcher = difflib.SequenceMatcher(None, a[alo:ahi], b[blo:bhi], autojunk=junk)
            found += [(alo + i, blo + j, n) for i, j, n in matcher.get_matching_blocks() if n]
            continue
        previous = (alo, blo)
        for i, j in anchors:
            found.append((i, j, 1))
            stack.append((previous[0], i, previous[1], j))
            previous = (i + 1, j + 1)
        stack.append((previous[0], ahi, previous[1], bhi))
    found.sort()
    merged: List[Tuple[int, int, int]] = []
    for i, j, n in found:
        if merged and merged[-1][0] + merged[-1][2] == i and merged[-1][1] + merged[-1][2] == j:
            merged[-1] = (merged[-1][0], merged[-1][1], merged[-1][2] + n)
        else:
            merged.append((i, j, n))
    return merged


def _anchors(a: List[bytes], alo: int, ahi: int, b: List[bytes], blo: int, bhi: int) -> List[Tuple[int, int]]:
    """The lines that occur once in a[alo:ahi] and once in b[blo:bhi], paired,
    the longest run of them in the same order on both sides."""
    seen: Dict[bytes, List[int]] = {}
    for i in range(alo, ahi):
        seen.setdefault(a[i], [0, -1, 0, -1])
        entry = seen[a[i]]
        entry[0] += 1
        entry[1] = i
    for j in range(blo, bhi):
        known = seen.get(b[j])
        if known is not None:
            known[2] += 1
            known[3] = j
    pairs = sorted((e[1], e[3]) for e in seen.values() if e[0] == 1 and e[2] == 1)
    # longest increasing run of j (patience sorting)
    tails: List[int] = []  # index into pairs of the smallest tail of each length
    tail_js: List[int] = []  # their j, for the search
    back: List[int] = []
    for index, (_, j) in enumerate(pairs):
        k = bisect.bisect_left(tail_js, j)
        back.append(tails[k - 1] if k else -1)
        if k == len(tails):
            tails.append(index)
            tail_js.append(j)
        else:
            tails[k] = index
            tail_js[k] = j
    run: List[Tuple[int, int]] = []
    at = tails[-1] if tails else -1
    while at >= 0:
        run.append(pairs[at])
        at = back[at]
    return run[::-1]


Op = Tuple[str, int, int, int, int]  # tag, a[i1:i2], b[j1:j2], as difflib's opcodes


def _opcodes(a: List[bytes], b: List[bytes]) -> List[Op]:
    """The edit script over the blocks of ``_matches``, with added and removed
    blocks slid down past lines equal to their first."""
    ops: List[List[Any]] = []
    i = j = 0
    for ai, bj, size in [*_matches(a, b), (len(a), len(b), 0)]:
        tag = "replace" if i < ai and j < bj else "delete" if i < ai else "insert" if j < bj else ""
        if tag:
            ops.append([tag, i, ai, j, bj])
        i, j = ai + size, bj + size
        if size:
            ops.append(["equal", ai, i, bj, j])
    for k in range(1, len(ops) - 1):
        before, op, after = ops[k - 1], ops[k], ops[k + 1]
        if op[0] not in ("insert", "delete") or before[0] != "equal" or after[0] != "equal":
            continue
        side, start, stop = (b, op[3], op[4]) if op[0] == "insert" else (a, op[1], op[2])
        while after[2] - after[1] > 1 and side[start] == side[stop]:
            before[2], before[4] = before[2] + 1, before[4] + 1
            op[1:] = [op[1] + 1, op[2] + 1, op[3] + 1, op[4] + 1]
            after[1], after[3] = after[1] + 1, after[3] + 1
            start, stop = start + 1, stop + 1
    return [(str(o[0]), int(o[1]), int(o[2]), int(o[3]), int(o[4])) for o in ops]


def _hunks(ops: List[Op], context: int = 3) -> List[List[Op]]:
    """The edit script cut into hunks with ``context`` lines around each
    change, as difflib's ``get_grouped_opcodes`` cuts it."""
    hunks: List[List[Op]] = []
    group: List[Op] = []
    for index, (tag, i1, i2, j1, j2) in enumerate(ops):
        if tag == "equal":
            if index == 0:  # leading context only
                i1, j1 = max(i1, i2 - context), max(j1, j2 - context)
            if index == len(ops) - 1:  # trailing context only
                i2, j2 = min(i2, i1 + context), min(j2, j1 + context)
            if i2 - i1 > 2 * context and 0 < index:
                group.append((tag, i1, i1 + context, j1, j1 + context))
                hunks.append(group)
                group = []
                i1, j1 = i2 - context, j2 - context
        group.append((tag, i1, i2, j1, j2))
    hunks.append(group)
    return [hunk for hunk in hunks if any(op[0] != "equal" for op in hunk)]


def _range(start: int, stop: int) -> bytes:
    """A hunk's range in the "ed" format, as difflib and git write it."""
    length = stop - start
    if length == 1:
        return b"%d" % (start + 1)
    return b"%d,%d" % (start + 1 if length else start, length)


def render_diff(name: bytes, old: bytes, new: bytes) -> bytes:
    """The diff of one file named ``name`` (see ``git_name``); empty when equal."""
    a, b = _lines(old), _lines(new)
    groups = _hunks(_opcodes(a, b)) if a != b else []
    if not groups:
        return b""
    tab = b"\t" if b" " in name else b""
    left, right = _quote(b"a/" + name), _quote(b"b/" + name)
    out = [b"diff --git %s %s\n--- %s%s\n+++ %s%s\n" % (left, right, left, tab, right, tab)]
    lines: List[bytes] = []
    for group in groups:
        first, last = group[0], group[-1]
        lines.append(b"@@ -%s +%s @@\n" % (_range(first[1], last[2]), _range(first[3], last[4])))
        for tag, i1, i2, j1, j2 in group:
            if tag == "equal":
                lines += [b" " + line for line in a[i1:i2]]
                continue
            lines += [b"-" + line for line in a[i1:i2]]
            lines += [b"+" + line for line in b[j1:j2]]
    for line in lines:
        out.append(line if line.endswith(b"\n") else line + b"\n\\ No newline at end of file\n")
    return b"".join(out)
