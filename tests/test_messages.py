"""Message texts: what the call returns, and what TRF005's list names."""
from __future__ import annotations

from pathlib import Path

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


def test_trf004_says_a_local_holds_the_shielded_task_until_the_frame_unwinds() -> None:
    """A shield of a new task keeps no reference to it; a shield of a task a local
    holds does, until a cancellation of the awaiting frame unwinds it (marimo's
    offline export and praisonaiagents' reviews: "store the task" misread the code)."""
    path = DATA / "trf004_shield.py"
    texts = {line: text for line, _, code, text in lint([path])[str(path)] if code == "TRF004"}
    assert texts[27] == (
        "asyncio.shield() of a new task from asyncio.create_task() keeps no reference to the shielded "
        "task; store the task (e.g. in a set with add_done_callback(set.discard)) and shield the stored task")
    assert texts[36] == (
        "asyncio.shield() of task 'task' (line 35) leaves it held only by that local, which a "
        "cancellation of the awaiting frame drops while the task runs; keep a reference that outlives "
        "the frame (e.g. a set with add_done_callback(set.discard))")


def test_trf008_names_the_local_gathered() -> None:
    """``task = create_task(...)``, ``tasks.append(task)``, ``gather(*tasks)``: the list
    gathered holds the tasks, not the loop's ``task`` (a reader of the thirty-fifth
    trial's sweep)."""
    path = DATA / "trf008_gather_fails_fast.py"
    texts = {line: text for line, _, code, text in lint([path], "--extend-select=TRF008")[str(path)]
             if code == "TRF008"}
    assert "held only by local 'tasks' (line 229);" in texts[231]


def test_trf002_says_how_the_local_loses_the_task() -> None:
    """A task held by a local collection is stored, in a collection that dies with
    the frame (twitchio's ``waits``); one added to a weak collection is added, but
    not kept; a plain local is never awaited, cancelled or stored."""
    path = DATA / "trf002_unkept_binding.py"
    texts = {line: text for line, _, code, text in lint([path])[str(path)] if code == "TRF002"}
    assert "held only by local 'task', which is never awaited, cancelled or stored;" in texts[14]
    collection = "a collection that dies with the frame (nothing awaits, cancels or stores its tasks);"
    assert f"held only by local 'pending', {collection}" in texts[59]
    assert f"held only by local 'bag', {collection}" in texts[63]
    weak = DATA / "trf002_weak_collections.py"
    found = {line: (code, text) for line, _, code, text in lint([weak])[str(weak)]}
    assert found[38] == ("TRF002", (
        "task returned by asyncio.create_task() is held only by local 'task', which is only added "
        "to 'self._tasks', a weak collection that does not keep it; keep a reference (e.g. a set "
        "with add_done_callback(set.discard)) or await it"
    ))
    assert "not stored (it is added to 'self._tasks', a weak collection, which does not keep it);" in (
        found[42][1]
    )


def test_trf002_says_a_loop_that_may_break_handles_only_part_of_the_collection() -> None:
    """A local collection handled only by a loop over it that may ``break`` (the
    loop awaits or takes the results of the tasks it visits) is not said to be
    awaited by nothing: the message names the loop."""
    path = DATA / "trf002_partly_visited.py"
    texts = {line: text for line, _, code, text in lint([path])[str(path)] if code == "TRF002"}
    broken = ("held only by local 'task_list', a collection that dies with the frame (only a loop over it "
              "that may break handles its tasks, and not those after the break);")
    assert broken in texts[19] and broken in texts[53]
    assert "held only by local 'task', which is never awaited, cancelled or stored;" in texts[73]


def test_trf006_dict_hint_is_valid_code() -> None:
    """The hint for a dict names the key the task is stored under (no undefined
    placeholder): the callback it suggests compiles."""
    import ast

    path = DATA / "trf006_never_pruned.py"
    texts = {line: text for line, _, code, text in lint([path], "--extend-select=TRF006")[str(path)]}
    assert texts[35].endswith("(task.add_done_callback(lambda _, k=id(task): self.by_id.pop(k, None)))")
    for text in texts.values():
        start = text.index("task.add_done_callback(")
        depth, end = 0, start
        for end in range(start, len(text)):  # to the parenthesis that closes the call
            depth += {"(": 1, ")": -1}.get(text[end], 0)
            if text[end] == ")" and depth == 0:
                break
        ast.parse(text[start:end + 1])


def test_a_helper_of_the_file_that_returns_tasks_is_named_as_one_of_another_module() -> None:
    """A function of the same file that returns a list (or set) of new tasks it
    fills: "list of tasks", as the message of another module's helper says
    (``app/bus.py``'s, project ``service_app``); it said "task"."""
    path = DATA / "trf001_filled_lists.py"
    texts = {line: text for line, _, code, text in lint([path])[str(path)] if code == "TRF001"}
    assert texts[55].startswith("list of tasks returned by self.start_all() is not stored;")
    assert texts[56].startswith("list of tasks returned by self.start_set() is not stored;")


def test_a_helper_of_the_file_that_returns_a_threadsafe_future_is_named_a_future(tmp_path: Path) -> None:
    """A function of the same file that returns ``run_coroutine_threadsafe``'s
    future: "future", as another module's (prefect's ``execute_in_background``);
    one that returns a task: "task"."""
    path = tmp_path / "helpers.py"
    path.write_text(
        "import asyncio\n\n\nasync def work():\n    await asyncio.sleep(1)\n\n\n"
        "def in_loop(loop):\n    return asyncio.run_coroutine_threadsafe(work(), loop)\n\n\n"
        "def started():\n    return asyncio.create_task(work())\n\n\n"
        "def main(loop):\n    in_loop(loop)\n    started()\n", encoding="utf-8")
    texts = {line: text for line, _, _, text in lint([path])[str(path)]}
    assert texts[17].startswith("future returned by in_loop() is not stored;"), texts
    assert texts[18].startswith("task returned by started() is not stored;"), texts


SOME_PATHS_AND_GUARDED = '''\
import asyncio

_tasks = set()


async def work():
    await asyncio.sleep(1)


def start_all(coros, now):
    if now:
        return [asyncio.create_task(c) for c in coros]
    return None


def start_fut(coro, loop, now):
    if now:
        return asyncio.run_coroutine_threadsafe(coro, loop)
    return None


def spawn_all(coros, keep=False):
    tasks = [asyncio.create_task(c) for c in coros]
    if keep:
        _tasks.update(tasks)
    return tasks


def fut(coro, loop, keep=False):
    f = asyncio.run_coroutine_threadsafe(coro, loop)
    if keep:
        _tasks.add(f)
    return f


def main(loop):
    start_all([work()], True)
    start_fut(work(), loop, True)
    spawn_all([work()])
    fut(work(), loop)
'''


def test_a_helper_of_the_file_on_some_paths_or_kept_on_request_is_named_as_one_of_another_module(
    tmp_path: Path,
) -> None:
    """A function of the same file that returns a list of new tasks or a future
    on some paths (``None`` on the others), or keeps them when a parameter says
    so: "list of tasks" and "future", as another module's helper is named (they
    said "task"); the tasks made in the ``return`` of ``start_all`` meet no
    later exit (they were a TRF007)."""
    path = tmp_path / "helpers.py"
    path.write_text(SOME_PATHS_AND_GUARDED, encoding="utf-8")
    rows = lint([path])[str(path)]
    texts = {line: text for line, _, _, text in rows}
    assert sorted(texts) == [37, 38, 39, 40], rows
    assert texts[37].startswith("list of tasks (on some paths) returned by start_all() is not stored;"), texts
    assert texts[38].startswith("future (on some paths) returned by start_fut() is not stored;"), texts
    assert texts[39].startswith("list of tasks returned by spawn_all() is not stored;"), texts
    assert texts[40].startswith("future returned by fut() is not stored;"), texts


def test_trf001_says_the_future_of_run_coroutine_threadsafe_holds_its_task() -> None:
    """A new user took the advice to keep the future for advice about the future; it is
    the task on the loop that is lost, held only through that future (a sweep's note)."""
    path = DATA / "trf001_threadsafe.py"
    texts = [text for _, _, code, text in lint([path])[str(path)] if code == "TRF001"]
    dropped = [text for text in texts
               if text.startswith("future returned by asyncio.run_coroutine_threadsafe()")]
    said = [text for text in dropped
            if "is not stored (the task it runs on the loop is held only through this future);" in text]
    assert len(said) >= 2 and not [text for text in dropped if "is not stored;" in text]
