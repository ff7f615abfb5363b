"""Names that only look like the helper: another package's module, a local module."""
from .tasks import fire_and_forget  # type: ignore[import-not-found]
from ..other import fire_and_forget as other_fire  # type: ignore[import-not-found]


async def job() -> None:
    pass


def start() -> None:
    fire_and_forget(job())  # myapp.sub.tasks.fire_and_forget: not the configured helper
    other_fire(job())
