"""``--fix``: keep the tasks the analysis found dropped (TRF001, TRF002).  The
file is read with ``ast`` and edited as text at the positions it gives.
``rewrite`` is the entry point (``fix_source``) and the rewrite; ``plan``
decides which sites can be fixed and where each task is kept; ``classes`` which
classes can hold a set of their own (``--fix-keep instance``); ``naming`` names
each task's handle after what is spawned; ``annotations`` spells the set's type
with the names the file already has; ``lines`` breaks a
new line that is too long as Black would (with Black); ``comments`` keeps a
``# type: ignore`` and its kin on the line of their code; ``nodes`` has small
helpers over ``ast`` nodes; ``units`` finds the statements of a file that the
fixer needs to look at; ``source`` turns positions into offsets and back into
the file's bytes; ``verify`` checks that the fix, undone, gives back the
original program.  It knows neither the command nor the pytest option.

This module holds only the options and the codes it fixes, so that reading them
costs nothing.
"""
from __future__ import annotations

from typing import NamedTuple, Optional, Tuple

__all__ = ["FixOptions", "KEEP_FORMS", "FIXABLE"]

# The codes whose sites the fixer fixes (the others need a human).
FIXABLE = ("TRF001", "TRF002")

# Where a fixed task is kept: a module-level set (the default: it keeps the task
# whatever the lifetime of any object), or a set on the instance whose method
# spawns it where the class can hold one (the module set where it cannot).
KEEP_FORMS = ("module", "instance")


class FixOptions(NamedTuple):
    """How a fix is written."""

    keep: str = KEEP_FORMS[0]
    line_length: int = 79  # new lines longer than this are broken as Black would
    # the oldest Python the project supports (requires-python, target-version),
    # None when it does not say: an annotation evaluated at import is then quoted
    min_python: Optional[Tuple[int, int]] = None
