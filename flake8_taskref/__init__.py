"""flake8-taskref: find asyncio tasks that can be garbage-collected while running."""
__version__ = "0.1.0"

from flake8_taskref.plugin import TaskRefPlugin  # noqa: E402

__all__ = ["TaskRefPlugin", "__version__"]
