"""The ``flake8-taskref`` command: ``cli`` (arguments, exit codes), ``runner``
(files, workers, writing fixes), ``output`` (the formats), ``workers``,
``writing`` and ``diffs``.  It reads the project (its settings, its files, one
file checked with ``# noqa``) through the project view (``project/``) and hands
``--fix``/``--diff`` to ``fix/``."""
