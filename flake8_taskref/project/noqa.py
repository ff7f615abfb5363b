"""``# noqa`` as flake8 reads it, for the ``flake8-taskref`` command.

flake8 looks for ``# noqa`` (bare, or ``# noqa: TRF001,TRF002``; any case; the
codes may be prefixes) on the line of a finding, where "the line" is every
physical line of the logical line that holds it (a call spread over several
lines can be silenced at any of them).  A line matching ``# flake8: noqa``
alone skips the whole file.  This module uses flake8's own patterns (copied in
``flake8_parts.py``) and its grouping of lines by tokens, so that the command
and the plugin silence the same findings.
"""
from __future__ import annotations

import re
from typing import Dict, List, Optional, Sequence

from flake8_taskref.project.flake8_parts import noqa_file, noqa_inline, parse_comma_separated_list

__all__ = ["NoqaLines", "file_is_skipped"]


# What every match of flake8's patterns holds (matched the same way, ignoring
# case): a file whose text holds none has no line to test.  The test of its lines
# (NOQA_FILE on each) and their grouping into logical lines (a pure-Python
# tokenize before Python 3.12) are most of a run's time on files with findings.
_FILE_HINT = re.compile(r"# flake8", re.IGNORECASE)
_INLINE_HINT = re.compile(r"# noqa", re.IGNORECASE)


def file_is_skipped(lines: Sequence[str], text: Optional[str] = None) -> bool:
    """Does a line of the file say ``# flake8: noqa`` (and nothing else)?
    (``text``: the lines joined, if the caller has them.)"""
    if text is not None and _FILE_HINT.search(text) is None:
        return False
    match = noqa_file().match
    return any(match(line) for line in lines)


class NoqaLines:
    """The text flake8 searches for ``noqa`` for each line number of a file."""

    def __init__(self, lines: Sequence[str], text: Optional[str] = None) -> None:
        self._lines = list(lines)
        self._mapping: Optional[Dict[int, str]] = None
        # no line can hold "# noqa" (``text``: the lines joined, if the caller has them)
        self._none = text is not None and _INLINE_HINT.search(text) is None

    def _build(self) -> Dict[int, str]:
        # As flake8's FileProcessor._noqa_line_mapping: the lines of all tokens
        # up to each NEWLINE/NL are joined and searched together.
        import tokenize  # only in a file with a "# noqa" and a finding

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
        if self._none:
            return False
        text = self.text_for(line)
        if text is None:
            return False
        match = noqa_inline().search(text)
        if match is None:
            return False
        codes_text = match.groupdict()["codes"]
        if codes_text is None:
            return True
        codes: List[str] = parse_comma_separated_list(codes_text)
        return code in codes or code.startswith(tuple(codes))
