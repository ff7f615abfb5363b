"""Message texts: what the call returns, and what TRF005's list names."""
from __future__ import annotations

from tests.harness import DATA, lint


def test_gather_returns_a_future_not_a_task() -> None:
    files = [DATA / "trf001_dropped.py", DATA / "trf002_unkept_binding.py"]
    results = lint(files)
    texts = [text for path in files for _, _, _, text in results[str(path)]]
    gathers = [text for text in texts if "asyncio.gather()" in text]
    assert gathers and all(text.startswith("future returned by asyncio.gather()") for text in gathers)
    others = [text for text in texts if "asyncio.create_task()" in text.split(";")[0]]
    assert others and all(text.startswith("task returned by") for text in others)


def test_trf005_says_where_the_pending_tasks_come_from() -> None:
    path = DATA / "trf005_pending_dropped.py"
    texts = {line: text for line, _, code, text in lint([path])[str(path)] if code == "TRF005"}
    assert "(tasks from local 'first', local 'second')" in texts[15]
    assert "(tasks from asyncio.create_task() at line 36)" in texts[35]
