"""What the server's code actions change, computed on a checked document
(``checking.Report``); no LSP library is needed here.

- A site's fix is the fix ``flake8-taskref --fix`` makes of that one site
  (``fix.checked.fix_checked``, the command's own function: the fixer, its
  self-check and the compile check), in the module form and, where the
  fixer's instance form applies (it keeps the task in a set on the instance
  rather than falling back to the module set), in the instance form.
- The whole document's fix is ``--fix`` on the document with the configured
  form.
- A suppression adds ``# noqa: CODE`` to the line, or the code to a
  ``# noqa:`` list the line has, where flake8 (and the command) read it: on
  any physical line of the logical line that holds the finding.  It is offered
  only when ``project.noqa.NoqaLines`` says the edited line silences the
  finding.
"""
from __future__ import annotations

import io
import tokenize
from typing import Dict, List, NamedTuple, Optional, Sequence, Tuple

from flake8_taskref.fix import FixOptions
from flake8_taskref.fix.checked import Checked, fix_checked
from flake8_taskref.fix.rewrite import FIXABLE, NEEDS_A_HUMAN, Site
from flake8_taskref.project.flake8_parts import noqa_inline
from flake8_taskref.project.noqa import NoqaLines
from flake8_taskref.server.checking import Report

__all__ = ["FIXABLE", "FixAll", "SiteFixes", "fix_all", "needs_a_human", "site_fixes", "suppression"]

# (line, first character, last character, new text): 0-based, in the line's characters
LineEdit = Tuple[int, int, int, str]


class SiteFixes(NamedTuple):
    """The document's text with one site fixed."""

    module: Optional[str]  # the task kept in a module set (None: not fixed)
    instance: Optional[str]  # in a set on the instance (None: the instance form does not apply)
    why: Optional[str]  # why the site is not fixed (both None)


class FixAll(NamedTuple):
    """The document's text with every site fixed as ``--fix`` fixes them."""

    text: Optional[str]  # None: nothing changes
    why: Dict[int, str]  # finding index -> why that site is left


def _encoded(text: str) -> Optional[Tuple[bytes, str]]:
    """The document's text as bytes of the file (in the encoding its coding
    cookie names, as the fixer reads them), and that encoding; None when the
    text cannot be written in it."""
    try:
        data = text.encode("utf-8")
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
    except (UnicodeError, SyntaxError):
        return None
    if encoding in ("utf-8", "utf-8-sig"):
        return data, "utf-8"
    try:
        return text.encode(encoding), encoding
    except (UnicodeError, LookupError):
        return None


def _run(report: Report, sites: Sequence[Site], options: FixOptions) -> Tuple[Optional[str], Checked]:
    """``fix_checked`` on the document's text: the fixed text (None: nothing
    changes, or the fix was dropped), and what the fix gives."""
    encoded = _encoded(report.text)
    if encoded is None:
        return None, Checked(None, [], "the text cannot be written in the encoding its coding cookie names")
    data, encoding = encoded
    done = fix_checked(data, sites, options, report.path)
    return (None if done.source is None else done.source.decode(encoding)), done


def _why(done: Checked) -> str:
    """Why a fix of one site leaves it."""
    if done.error is not None:
        return done.error
    left = [outcome.detail for outcome in done.outcomes if not outcome.fixed]
    return left[0] if left else "not fixable"


def site_fixes(report: Report, index: int, options: FixOptions) -> SiteFixes:
    """Finding ``index`` of the report fixed alone, in each form."""
    site = report.sites[index]
    code = report.findings[index].code
    if site is None or code not in FIXABLE:
        return SiteFixes(None, None, NEEDS_A_HUMAN.get(code, "not fixable"))
    module_text, module = _run(report, [site], options._replace(keep="module"))
    instance_text, _ = _run(report, [site], options._replace(keep="instance"))
    if instance_text == module_text:
        instance_text = None  # the instance form kept it in the module set (the note says why)
    if module_text is None and instance_text is None:
        return SiteFixes(None, None, _why(module))
    return SiteFixes(module_text, instance_text, None)


def fix_all(report: Report, options: FixOptions) -> FixAll:
    """``--fix`` on the document (the configured form), and why each site it
    leaves is left.  A TRF001/TRF002 site left by the whole fix (another fix
    rewrites its line) but fixed alone is not "left": its quick fix works."""
    indices = [index for index, site in enumerate(report.sites) if site is not None]
    if not indices:
        return FixAll(None, {})
    sites = [site for site in report.sites if site is not None]
    text, done = _run(report, sites, options)
    why: Dict[int, str] = {}
    fixed = {(o.line, o.col, o.code) for o in done.outcomes if o.fixed}
    details = {(o.line, o.col, o.code): o.detail for o in done.outcomes}
    for index in indices:
        finding = report.findings[index]
        key = (finding.line, finding.col, finding.code)
        if key in fixed:
            continue
        if finding.code in FIXABLE:
            alone = site_fixes(report, index, options)
            if alone.why is not None:
                why[index] = alone.why
        else:
            why[index] = details.get(key) or NEEDS_A_HUMAN.get(finding.code, "not fixable")
    return FixAll(text, why)


def needs_a_human(code: str) -> Optional[str]:
    """Why the fixer never fixes a finding of ``code`` (None: it may)."""
    return None if code in FIXABLE else NEEDS_A_HUMAN.get(code, "not fixable")


# ------------------------------------------------------------------- noqa
def _logical_line(lines: List[str], line: int) -> Optional[List[tokenize.TokenInfo]]:
    """The tokens of the logical line that holds physical line ``line``, as
    flake8 groups them for ``# noqa`` (``project.noqa.NoqaLines``)."""
    feed = iter(lines)
    try:
        tokens = list(tokenize.generate_tokens(lambda: next(feed, "")))
    except (tokenize.TokenError, SyntaxError):
        return None
    group: List[tokenize.TokenInfo] = []
    for token in tokens:
        if token.type in (tokenize.ENDMARKER, tokenize.DEDENT):
            continue
        group.append(token)
        if token.type in (tokenize.NL, tokenize.NEWLINE):
            if min(t.start[0] for t in group) <= line <= max(t.end[0] for t in group):
                return group
            group = []
    return None


def suppression(report: Report, index: int) -> Optional[LineEdit]:
    """The edit that silences finding ``index`` with ``# noqa`` (None: no
    line of its logical line can take it)."""
    finding = report.findings[index]
    lines = report.lines
    group = _logical_line(lines, finding.line)
    if group is None:
        return None
    edit = _extend(lines, group, finding.code) or _append(lines, group, finding.line, finding.code)
    if edit is None:
        return None
    row, start, end, new = edit
    changed = list(lines)
    changed[row] = lines[row][:start] + new + lines[row][end:]
    if not NoqaLines(changed).silences(finding.line, finding.code):
        return None
    return edit


def _extend(lines: List[str], group: List[tokenize.TokenInfo], code: str) -> Optional[LineEdit]:
    """Add ``code`` to the codes of the ``# noqa:`` flake8 reads on this
    logical line, if it has one in a comment."""
    first = min(token.start[0] for token in group)
    last = max(token.end[0] for token in group)
    joined = "".join(lines[first - 1:last])
    match = noqa_inline().search(joined)
    if match is None:
        return None
    before = joined[: match.start()]
    row = first + before.count("\n")
    col = len(before) - (before.rfind("\n") + 1)
    for token in group:
        (token_row, token_col), length = token.start, len(token.string)
        if token.type == tokenize.COMMENT and token_row == row and token_col <= col < token_col + length:
            own = noqa_inline().match(token.string, col - token_col)
            if own is None or own.group("codes") is None:
                return None
            end = own.end("codes")
            while end > 0 and token.string[end - 1] in ", \t":
                end -= 1
            at = token.start[1] + end
            return row - 1, at, at, f", {code}"
    return None  # "# noqa" inside a string: flake8 reads it there; nothing to extend


def _append(lines: List[str], group: List[tokenize.TokenInfo], line: int, code: str) -> Optional[LineEdit]:
    """``  # noqa: CODE`` at the end of the finding's line, or, when that line
    ends inside a string or with a backslash, of the logical line's last."""
    ends = sorted({token.start[0] for token in group if token.type in (tokenize.NL, tokenize.NEWLINE)})
    if not ends:
        return None
    row = line if line in ends else ends[-1]
    content = lines[row - 1].rstrip("\r\n")
    kept = content.rstrip(" \t")
    return row - 1, len(kept), len(content), f"  # noqa: {code}"
