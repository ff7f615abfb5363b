"""One file's fix as every face makes it (``flake8-taskref --fix`` and
``--diff``, the editor server's code actions): ``rewrite.fix_source`` on the
sites, with what can go wrong turned into reasons.  A fix that fails its own
self-check, or a bug of the fixer, leaves the file as it was and every site
"not fixed" with the reason; a fixed file that does not compile (a bug of the
fixer too) is dropped, and says so.
"""
from __future__ import annotations

import ast
from typing import List, NamedTuple, Optional, Sequence

from flake8_taskref.fix import FixOptions
from flake8_taskref.fix.rewrite import FixError, Outcome, Site, fix_source
from flake8_taskref.project.source import split_lines

__all__ = ["Checked", "fix_checked"]


class Checked(NamedTuple):
    """What the fix of one file gives."""

    source: Optional[bytes]  # the fixed bytes; None when nothing changes or the fix was dropped
    outcomes: List[Outcome]  # what happened to each site, in order of position
    error: Optional[str] = None  # why a fix that was made was dropped (it does not compile)


def fix_checked(
    data: bytes, sites: Sequence[Site], options: FixOptions, filename: str, tree: Optional[ast.AST] = None,
) -> Checked:
    """Fix the TRF001/TRF002 findings at ``sites`` of the file ``data``
    (``filename`` names it in a compile error; ``tree``: the file's, if the
    caller has parsed it already)."""
    try:
        result = fix_source(data, sites, options, tree if isinstance(tree, ast.Module) else None)
    except FixError as exc:  # the fix's self-check, or a file too deep: leave the file
        why = str(exc)
    except Exception as exc:  # a bug in the fixer: leave the file, say what happened
        why = f"the fixer failed: {type(exc).__name__}: {exc}".rstrip(": ")
    else:
        why = ""
    if why:
        return Checked(None, [Outcome(site[0], site[1] + 1, site[4], False, why) for site in sites])
    if not result.changed:
        return Checked(None, result.outcomes)
    try:
        compile("".join(split_lines(result.source)), filename, "exec", dont_inherit=True)
    except (SyntaxError, ValueError, RecursionError, MemoryError) as exc:  # a bug in the fixer
        dropped = [Outcome(o.line, o.col, o.code, False, "fix failed" if o.fixed else o.detail)
                   for o in result.outcomes]
        return Checked(None, dropped, f"the fix did not compile ({exc}); file left unchanged")
    return Checked(result.source, result.outcomes)
