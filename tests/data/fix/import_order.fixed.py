"""Issue 17, item 5: a file whose imports are in isort's and Ruff's order (it
passes Ruff's I rules); the fix must add no import and keep that order."""
from __future__ import annotations

import logging
from dataclasses import dataclass

import attr

from mypkg.jobs import job

_background_tasks: set[object] = set()

log = logging.getLogger(__name__)


@dataclass
class Config:
    name: str


class Runner:
    def __init__(self, config: Config) -> None:
        self.config = config

    def start(self, loop: attr.Loop) -> None:
        job_task = loop.create_task(job(self.config.name))
        _background_tasks.add(job_task)
        job_task.add_done_callback(_background_tasks.discard)
        del job_task
