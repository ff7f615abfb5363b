"""``--fix``: keep the tasks the analysis found dropped (TRF001, TRF002), with
LibCST.  ``rewrite`` is the entry point (``fix_source``) and the rewrite;
``plan`` decides which sites can be fixed and where each task is kept;
``classes`` which classes can hold a set of their own (``--fix-keep
instance``); ``annotations`` spells the set's type with the names the file
already has; ``lines`` breaks a new line that is too long as Black would;
``cst_nodes`` has small helpers over LibCST nodes.  It knows neither the
command nor the pytest option.

This module holds only the options, so that reading them costs no LibCST.
"""
from __future__ import annotations

from typing import NamedTuple

__all__ = ["FixOptions", "KEEP_FORMS"]

# Where a fixed task is kept: a module-level set (the default: it keeps the task
# whatever the lifetime of any object), or a set on the instance whose method
# spawns it where the class can hold one (the module set where it cannot).
KEEP_FORMS = ("module", "instance")


class FixOptions(NamedTuple):
    """How a fix is written."""

    keep: str = KEEP_FORMS[0]
    line_length: int = 79  # new lines longer than this are broken as Black would
