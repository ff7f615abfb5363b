"""Comments that tools read on the line of the code they cover: ``# type:
ignore[...]`` (mypy), ``# pyright: ignore[...]``, ``# noqa: ...`` (flake8,
Ruff), ``# pylint: disable=...``, ``# pytype: disable=...``, ``# nosec``,
``# fmt: skip``.  mypy and pyright apply an ignore to an error whose node spans
the comment's line; flake8 and Ruff a ``noqa`` to a finding reported on it.

A fix that rewrites a statement keeps such a comment on one line with all the
code it had on its line (so every node it covered still spans it), and removes
the codes the fix itself resolves (the dropped task's own warnings:
mypy's ``unused-awaitable``, Ruff's ``RUF006``, pyright's
``reportUnusedCallResult``), which would otherwise be reported as unused
(mypy's ``unused-ignore``, Ruff's ``RUF100``).
"""
from __future__ import annotations

import io
import re
import tokenize
from typing import List, Optional, Tuple

# What each kind of pragma may name that a fix resolves: the result of the spawn is
# now bound, so no tool says it is dropped.
_RESOLVED = {
    "type": frozenset({"unused-awaitable"}),
    "pyright": frozenset({"reportUnusedCallResult"}),
    "noqa": frozenset({"RUF006"}),
}
# A pragma with codes: ``# type: ignore[a, b]``, ``# pyright: ignore[a]``, ``# noqa: A1, B2``.
_WITH_CODES = re.compile(
    r"#\s*(?:(?P<kind>type|pyright):\s*ignore\[(?P<codes>[^\]]*)\]"
    r"|(?P<noqa>noqa)\s*:\s*(?P<noqa_codes>[A-Z]+[0-9]+(?:(?:\s*,\s*|\s+)[A-Z]+[0-9]+)*))",
    re.IGNORECASE,
)
_LINE_BOUND = re.compile(
    r"#\s*(?:type:\s*ignore|pyright:\s*ignore|noqa\b|pylint:\s*disable|pytype:\s*disable|nosec\b"
    r"|fmt:\s*skip)",
    re.IGNORECASE,
)


def resolve(comment: str) -> Tuple[str, List[str]]:
    """``comment`` (a trailing comment, from its ``#``) without the codes the fix
    resolves, and what was removed, for the site's note (``'# noqa: RUF006'``,
    ``unused-awaitable from '# type: ignore[arg-type, unused-awaitable]'``).
    A pragma left without a code goes (with what it says after its codes);
    the comment is "" when nothing is left."""
    changed: List[str] = []
    out: List[str] = []
    for segment in re.split(r"(?=#)", comment):  # "# type: ignore[x]  ", "# a note"
        match = _WITH_CODES.match(segment)
        if match is None:
            out.append(segment)
            continue
        kind = "noqa" if match.group("noqa") else (match.group("kind") or "").lower()
        group = "noqa_codes" if kind == "noqa" else "codes"
        text = match.group(group)
        codes = [code for code in re.split(r"[\s,]+", text.strip()) if code]
        resolved = _RESOLVED[kind]
        kept = [code for code in codes if code not in resolved and code.upper() not in resolved]
        if len(kept) == len(codes):
            out.append(segment)
            continue
        if kept:
            gone = ", ".join(code for code in codes if code not in kept)
            changed.append(f"{gone} from '{match.group(0)}'")
        else:
            changed.append(f"'{match.group(0)}'")
        if kept:
            sep = ", " if "," in text or kind != "noqa" else " "
            out.append(segment[: match.start(group)] + sep.join(kept) + segment[match.end(group):])
    return "".join(out).rstrip(), changed


def line_bound(comment: str) -> Optional[str]:
    """The first pragma in a comment that must stay on the line of its code, or None."""
    match = _LINE_BOUND.search(comment)
    if match is None:
        return None
    end = comment.find("#", match.end())
    return comment[match.start(): end if end >= 0 else len(comment)].rstrip()


def comments(text: str) -> List[Tuple[int, int, int]]:
    """The comments of a statement's text (its first line from the statement's
    start, its other lines whole): (line index, start, end) within the lines;
    [] if it does not tokenize."""
    found: List[Tuple[int, int, int]] = []
    if "#" not in text:
        return found  # no comment (most statements: no tokenizing)
    try:
        for token in tokenize.generate_tokens(io.StringIO(text).readline):
            if token.type == tokenize.COMMENT:
                found.append((token.start[0] - 1, token.start[1], token.end[1]))
    except (tokenize.TokenError, SyntaxError):
        return []
    return found
