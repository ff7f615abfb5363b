"""One process timed as the benchmark scripts time them: wall-clock seconds
(``time.perf_counter`` around it) and CPU seconds (user + system of the child,
from ``RUSAGE_CHILDREN``)."""
from __future__ import annotations

import resource
import subprocess
import time
from typing import Any, Sequence, Tuple


def timed_run(argv: Sequence[str], **run: Any) -> Tuple[float, float, "subprocess.CompletedProcess[Any]"]:
    """``subprocess.run(argv, **run)``: its wall and CPU seconds, and the process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    proc = subprocess.run(list(argv), **run)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, proc
