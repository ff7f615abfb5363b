"""A new line that is too long is broken as Black would break it.

Only the statements a fix writes or changes are looked at, and only when one of
their lines is longer than the project's limit: Black (a dependency of the
``fix`` extra) formats that one statement, with the room its indentation
leaves, without normalising string quotes; its continuation lines are then
indented under the statement (with the file's own indentation unit).  Black is
imported only when a line is too long.
"""
from __future__ import annotations

import io
import tokenize
from typing import List

TAB_WIDTH = 4  # how wide a tab counts (Ruff's default indent-width)


def width(text: str) -> int:
    return len(text.expandtabs(TAB_WIDTH))


def too_long(code: str, indent: str, limit: int) -> bool:
    """Does a line of ``code`` (a statement: its first line without its
    indentation, its other lines as they are in the file) pass ``limit`` once
    indented?"""
    lines = code.splitlines()
    if not lines:
        return False
    return width(indent + lines[0]) > limit or any(width(line) > limit for line in lines[1:])


def fit(code: str, indent: str, limit: int, unit: str) -> str:
    """``code`` (one statement, its first line without indentation, ending in a
    newline) as Black formats it to fit in ``limit`` at ``indent``, its
    continuation lines indented with ``indent`` and ``unit`` (the file's
    indentation step); the code unchanged when Black cannot take it."""
    if multiline_string(code):  # indenting its lines would change the string
        return code
    import black

    room = max(limit - width(indent), 1)
    mode = black.Mode(line_length=room, string_normalization=False, magic_trailing_comma=True)
    try:
        formatted = black.format_str(code, mode=mode)
    except Exception:  # black.InvalidInput, or a statement Black's grammar refuses
        return code
    lines = formatted.splitlines()
    if len(lines) < 1:
        return code
    out: List[str] = [lines[0]]
    for line in lines[1:]:
        stripped = line.lstrip(" ")
        levels, extra = divmod(len(line) - len(stripped), 4)
        out.append(indent + unit * levels + " " * extra + stripped if stripped else "")
    return "\n".join(out) + "\n"


_STRING_TOKENS = {
    tokenize.STRING,
    *(getattr(tokenize, name) for name in ("FSTRING_MIDDLE", "TSTRING_MIDDLE") if hasattr(tokenize, name)),
}


def multiline_string(code: str) -> bool:
    try:
        return any(
            token.type in _STRING_TOKENS and "\n" in token.string
            for token in tokenize.generate_tokens(io.StringIO(code).readline)
        )
    except (tokenize.TokenError, SyntaxError):
        return True
