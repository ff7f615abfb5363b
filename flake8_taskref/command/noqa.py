"""``# noqa`` as flake8 reads it, for the ``flake8-taskref`` command.

flake8 looks for ``# noqa`` (bare, or ``# noqa: TRF001,TRF002``; any case; the
codes may be prefixes) on the line of a finding, where "the line" is every
physical line of the logical line that holds it (a call spread over several
lines can be silenced at any of them).  A line matching ``# flake8: noqa``
alone skips the whole file.  This module uses flake8's own patterns and its
grouping of lines by tokens, so that the command and the plugin silence the
same findings.
"""
from __future__ import annotations

import tokenize
from typing import Dict, List, Optional, Sequence

from flake8.defaults import NOQA_FILE, NOQA_INLINE_REGEXP
from flake8.utils import parse_comma_separated_list

__all__ = ["NoqaLines", "file_is_skipped"]


def file_is_skipped(lines: Sequence[str]) -> bool:
    """Does a line of the file say ``# flake8: noqa`` (and nothing else)?"""
    return any(NOQA_FILE.match(line) for line in lines)


class NoqaLines:
    """The text flake8 searches for ``noqa`` for each line number of a file."""

    def __init__(self, lines: Sequence[str]) -> None:
        self._lines = list(lines)
        self._mapping: Optional[Dict[int, str]] = None

    def _build(self) -> Dict[int, str]:
        # As flake8's FileProcessor._noqa_line_mapping: the lines of all tokens
        # up to each NEWLINE/NL are joined and searched together.
        mapping: Dict[int, str] = {}
        line_iter = iter(self._lines)
        try:
            tokens = list(tokenize.generate_tokens(lambda: next(line_iter, "")))
        except (tokenize.TokenError, SyntaxError):
            return mapping
        first = len(self._lines) + 2
        last = -1
        for kind, _, (start, _), (end, _), _ in tokens:
            if kind in (tokenize.ENDMARKER, tokenize.DEDENT):
                continue
            first = min(first, start)
            last = max(last, end)
            if kind in (tokenize.NL, tokenize.NEWLINE):
                joined = "".join(self._lines[first - 1:last])
                for number in range(first, last + 1):
                    mapping[number] = joined
                first = len(self._lines) + 2
                last = -1
        return mapping

    def text_for(self, line: int) -> Optional[str]:
        if self._mapping is None:
            self._mapping = self._build()
        text = self._mapping.get(line)
        if text is None and 0 < line <= len(self._lines):
            # flake8 then reads the physical line from the file itself
            text = self._lines[line - 1]
        return text

    def silences(self, line: int, code: str) -> bool:
        """Is a finding of ``code`` at ``line`` silenced by a ``# noqa``?"""
        text = self.text_for(line)
        if text is None:
            return False
        match = NOQA_INLINE_REGEXP.search(text)
        if match is None:
            return False
        codes_text = match.groupdict()["codes"]
        if codes_text is None:
            return True
        codes: List[str] = parse_comma_separated_list(codes_text)
        return code in codes or code.startswith(tuple(codes))
