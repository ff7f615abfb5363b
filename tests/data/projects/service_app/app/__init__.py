"""Re-exports, one renamed (``start_background`` is ``util.spawn_logged``)."""
from .util import keep_task, spawn_logged
from .util import spawn_logged as start_background

__all__ = ["keep_task", "spawn_logged", "start_background"]
