"""The fixed classes of each kind of issue 17 run, keep their tasks, and do what
the original did: a class whose __init__ checks a guard before its base
initialiser, a base that refuses attributes (``__setattr__``), a short-lived
object, and a client that restarts itself.

Each scenario runs in a fresh interpreter, on the original file and on its
golden fixed files (``tests/data/fix/NAME[.instance].fixed.py``): its task
waits on an event held only weakly, so that the collector can take the task
when nothing else keeps it; the scenario prints what the program did and how
many tasks finished and how many were destroyed while pending.
"""
from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path
from typing import List

import pytest

from tests.harness import DATA

FIX = DATA / "fix"

PRELUDE = """
import asyncio, gc, sys, weakref
import subject

events = []
finished = []
destroyed = []


async def wait_weakly():
    event = asyncio.Event()
    events.append(weakref.ref(event))
    await event.wait()
    finished.append(1)


def release():
    for ref in events:
        event = ref()
        if event is not None:
            event.set()


async def run(scenario):
    asyncio.get_running_loop().set_exception_handler(lambda loop, ctx: destroyed.append(ctx["message"]))
    out = await scenario()
    print(f"{out}|{len(finished)}|{len(destroyed)}")

"""

SCENARIOS = {
    "base_guard": """
async def _run(self):
    await wait_weakly()
    self.count += 1

subject.Worker._run = _run

async def _go(self):
    await wait_weakly()

subject.Job._go = _go


async def scenario():
    try:
        subject.Worker("")
    except ValueError as exc:
        refused = str(exc)
    worker = subject.Worker("w")
    worker.kick()
    job = subject.Job(size=3)
    job.launch()
    await asyncio.sleep(0)
    gc.collect()
    release()
    await asyncio.sleep(0.01)
    return f"{refused!r}/{worker.name}/{worker.count}/{job._fields}"

asyncio.run(run(scenario))
""",
    "short_lived": """
async def _work(self, event):
    await wait_weakly()
    subject.done.append(self.name)

subject.OneShot._work = _work


async def scenario():
    for name in ("a", "b", "c"):
        subject.handle(name, asyncio.Event())
    await asyncio.sleep(0)
    gc.collect()
    release()
    await asyncio.sleep(0.01)
    return ",".join(subject.done)

asyncio.run(run(scenario))
""",
    "restart_client": """
async def scenario():
    client = subject.Client()
    client.start()
    await asyncio.sleep(0)
    client.connection_lost()
    for _ in range(5):
        await asyncio.sleep(0)
        gc.collect()
    await asyncio.sleep(0.01)
    state = client.state
    log = ",".join(client.log)
    await client.stop()
    return f"{state}:{log}"

asyncio.run(run(scenario))
""",
}


def _run(tmp_path: Path, name: str, variant: str) -> List[str]:
    source = FIX / f"{name}{variant}.py"
    work = tmp_path / (variant.strip(".") or "original")
    work.mkdir(exist_ok=True)
    shutil.copy(source, work / "subject.py")
    proc = subprocess.run([sys.executable, "-c", PRELUDE + SCENARIOS[name]], cwd=work,
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout.strip().split("|")


def test_guarded_init_and_attribute_refusing_base(tmp_path: Path) -> None:
    """Worker checks its argument before super().__init__; Job's base refuses
    attributes (its __setattr__).  Fixed in either form, both construct as
    before, the guard still refuses first, and the tasks are kept."""
    original = _run(tmp_path, "base_guard", "")
    outcome = "'a worker needs a name'/w/0/{'size': 3}"
    assert original == [outcome, "0", "2"]  # both tasks destroyed while pending
    for variant in (".fixed", ".instance.fixed"):
        assert _run(tmp_path, "base_guard", variant) == [
            "'a worker needs a name'/w/1/{'size': 3}", "2", "0"
        ], variant


def test_short_lived_object(tmp_path: Path) -> None:
    """A handler object dropped right after it spawns: the module set keeps the
    task; the instance form's set dies with the object (the documented reason
    the module form is the default)."""
    assert _run(tmp_path, "short_lived", "") == ["", "0", "3"]
    assert _run(tmp_path, "short_lived", ".fixed") == ["a,b,c", "3", "0"]
    assert _run(tmp_path, "short_lived", ".instance.fixed") == ["", "0", "3"]


@pytest.mark.parametrize("variant", ["", ".fixed", ".instance.fixed"])
def test_self_restarting_client(tmp_path: Path, variant: str) -> None:
    """connection_lost() spawns restart(), which stops the client (cancelling and
    awaiting its pending tasks) and starts it again.  The fix keeps the restart
    task in a set of its own: had it gone into pending_tasks, stop() would cancel
    and wait for the restart task itself and the client would hang in "stopping"."""
    assert _run(tmp_path, "restart_client", variant) == [
        "running:started,stopping,stopped,started", "0", "0"
    ]


@pytest.mark.parametrize("variant", ["", ".fixed"])
@pytest.mark.parametrize("function", ["run()", "run_printing('printed')"])
def test_finished_task_is_freed(tmp_path: Path, variant: str, function: str) -> None:
    """Issue 33: a loop whose exception handler stops it, and a task whose
    coroutine raises.  Once done, the task is freed and asyncio reports "Task
    exception was never retrieved", which stops the loop.  A fix that bound the
    task to a name living on through ``loop.run_forever()`` kept the finished
    task, and the program hung: the fix releases its name after the statement."""
    work = tmp_path / (variant.strip(".") or "original")
    work.mkdir(exist_ok=True)
    shutil.copy(FIX / f"finished_freed{variant}.py", work / "subject.py")
    try:
        proc = subprocess.run([sys.executable, "-c", f"import subject; subject.{function}; print('stopped')"],
                              cwd=work, capture_output=True, text=True, timeout=20)
    except subprocess.TimeoutExpired:
        pytest.fail(f"{variant or 'the original'}: the loop was never stopped (the finished task was kept)")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.split()[-1] == "stopped"
