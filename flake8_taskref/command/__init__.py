"""The ``flake8-taskref`` command: ``cli`` (arguments, exit codes), ``config``
(flake8's and pyproject.toml's settings), ``runner`` (files, workers, reading
and writing them), ``noqa`` (flake8's ``# noqa`` rules) and ``output`` (the
formats).  It runs the analysis through ``analysis.api.lint_file``, as flake8
does, and hands ``--fix``/``--diff`` to ``fix/``."""
