"""The floor of any Python run that must read a project's files (issue 31, ray
against Ruff): start, walk every folder, read every ``.py`` file, search it for
asyncio's spawner names, and parse those that name one; prints the files, those
that name a spawner, and the seconds it took (the collector off, as the index runs).

    python benchmarks/floor.py PATH
"""
from __future__ import annotations

import ast
import gc
import os
import re
import sys
import time

SPAWNERS = re.compile(rb"create_task|ensure_future|run_coroutine_threadsafe")


def main(top: str) -> None:
    gc.disable()
    start = time.perf_counter()
    files = hot = 0
    stack = [top]
    while stack:
        with os.scandir(stack.pop()) as entries:
            for entry in entries:
                if entry.is_dir(follow_symlinks=False):
                    stack.append(entry.path)
                elif entry.name.endswith(".py"):
                    files += 1
                    with open(entry.path, "rb") as handle:
                        data = handle.read()
                    if SPAWNERS.search(data):
                        hot += 1
                        ast.parse(data)
    print(files, hot, round(time.perf_counter() - start, 3))


if __name__ == "__main__":
    main(sys.argv[1])
