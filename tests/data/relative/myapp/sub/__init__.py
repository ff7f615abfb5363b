"""A subpackage: ``from .. import`` and ``from ..tasks import``."""
from .. import tasks
from ..tasks import fire_and_forget as spawn_one


def start() -> None:
    tasks.fire_and_forget(tasks.job())  # error: TRF001:5
    spawn_one(tasks.job())  # error: TRF001:5
