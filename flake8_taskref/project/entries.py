"""The shapes of the cache's entries, checked where they are read: an entry
that decodes to anything but what this version writes is a miss (recomputed),
never an error.  An entry is signed with the user's key (``cache.py``), so a
wrong shape means a bug or a change of format; the check costs little (a type
test per value) and makes the readers' unpacking total.

Each shape is a function of a value that says whether the value has it:
``STR``, ``INT`` (a bool is none), ``BOOL``, ``optional``, ``list_of``,
``row`` (a list of so many values of these shapes), ``dict_of``."""
from __future__ import annotations

from typing import Any, Callable, Dict, List, Optional

from flake8_taskref.analysis.messages import SpanError
from flake8_taskref.analysis.modules import ModuleSummary

__all__ = [
    "Shape", "error_from_json", "error_to_json", "findings_entry", "index_entry", "summary_entry",
]

Shape = Callable[[Any], bool]


def STR(value: Any) -> bool:
    return type(value) is str


def INT(value: Any) -> bool:
    return type(value) is int


def BOOL(value: Any) -> bool:
    return type(value) is bool


def NONE(value: Any) -> bool:
    return value is None


def optional(shape: Shape) -> Shape:
    return lambda value: value is None or shape(value)


def list_of(shape: Shape) -> Shape:
    return lambda value: type(value) is list and all(map(shape, value))


def row(*shapes: Shape) -> Shape:
    count = len(shapes)
    return lambda value: (type(value) is list and len(value) == count
                          and all(shape(item) for shape, item in zip(shapes, value)))


def dict_of(key: Shape, item: Shape) -> Shape:
    return lambda value: type(value) is dict and all(key(k) and item(v) for k, v in value.items())


def fields(**shapes: Shape) -> Shape:
    """A dict with (at least) these keys, each of its shape."""
    return lambda value: type(value) is dict and all(
        name in value and shape(value[name]) for name, shape in shapes.items())


# ``ModuleSummary.to_json`` (analysis/modules.py); tests/test_cache_trust.py
# checks that every summary of the fixtures has it
_REF = row(STR, STR, STR, STR, INT, STR, BOOL)
_FUNCTION = row(INT, BOOL, INT, BOOL, INT, list_of(STR), list_of(STR), list_of(STR), BOOL, BOOL,
                list_of(row(INT, list_of(_REF))), list_of(_REF), BOOL, BOOL, row(STR, BOOL, INT),
                list_of(INT), STR, BOOL, BOOL, INT, BOOL, BOOL)
_CLASS = row(INT, list_of(STR), list_of(STR), list_of(row(STR, STR)), list_of(STR), BOOL)
SUMMARY = row(STR, STR, list_of(row(STR, _FUNCTION)), list_of(row(STR, _CLASS)),
              list_of(row(STR, list_of(STR))), optional(list_of(STR)), list_of(STR), list_of(STR),
              BOOL, STR, BOOL)
_SUMMARY_ENTRY = fields(hash=STR, summary=optional(SUMMARY))

# an index's file: modification time, size, content hash, names a spawner?,
# its text's hash (or None), change time, inode (checked where it is compared
# with the file's status: ``ProjectView._index``)
_INDEX = fields(roots=list_of(STR), files=lambda value: type(value) is dict, words=list_of(STR),
                hot=list_of(STR))

_ERROR = row(STR, STR, INT, INT, INT, INT, optional(row(STR, INT, STR)), STR)
_FINDINGS = fields(hash=STR, words=STR, uses=list_of(row(STR, optional(STR), STR)),
                   findings=list_of(_ERROR))


def index_entry(value: Any) -> Optional[Dict[str, Any]]:
    """The project's index as the cache kept it, if it has its shape (its
    files' entries are checked one by one, where they are used: ``FILE``)."""
    return value if _INDEX(value) else None


def summary_entry(value: Any, hashed: str) -> Optional[List[Optional[ModuleSummary]]]:
    """A summary entry made from the content of hash ``hashed``: ``[summary]``
    (None: the module has none), or None for a miss."""
    if not _SUMMARY_ENTRY(value) or value["hash"] != hashed:
        return None
    found = value["summary"]
    if found is None:
        return [None]
    try:
        return [ModuleSummary.from_json(found)]
    except Exception:  # pragma: no cover - the shape is checked
        return None


def findings_entry(value: Any, hashed: str, words: str) -> Optional[Dict[str, Any]]:
    """A file's findings entry for the text of hash ``hashed`` and these
    words, if it has its shape; else None."""
    if not _FINDINGS(value) or value["hash"] != hashed or value["words"] != words:
        return None
    found: Dict[str, Any] = value
    return found


def error_to_json(error: SpanError) -> List[Any]:
    return [error.code, error.message, error.lineno, error.col_offset, error.end_lineno, error.end_col_offset,
            None if error.related is None else list(error.related), error.unfixable]


def error_from_json(item: List[Any]) -> SpanError:
    code, message, line, col, end_line, end_col, related, unfixable = item
    error = SpanError(code, message, line, col, end_line, end_col)
    error.unfixable = str(unfixable)
    error.related = None if related is None else (str(related[0]), int(related[1]), str(related[2]))
    return error
