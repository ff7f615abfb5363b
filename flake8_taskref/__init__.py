"""flake8-taskref: find asyncio tasks that can be garbage-collected while running.

One analysis (``analysis/``) with its faces over it: the flake8 plugin
(``plugin.py``), the ``flake8-taskref`` command (``command/``), its fixer
(``fix/``), the pytest option (``runtime/``) and the editor server
(``server/``).  This module holds only the version: importing it imports
nothing else.
"""
__version__ = "0.1.0"

__all__ = ["__version__"]
