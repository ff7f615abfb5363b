"""The project view: everything that reads the user's project from disk, between
the pure analysis (``analysis/``) and the faces (the flake8 plugin, the
``flake8-taskref`` command, the fixer, the pytest option, the editor server),
which use it and never re-implement it.

``config`` reads the project's configuration as flake8 does (and
``pyproject.toml``'s ``[tool.flake8-taskref]``), with ``flake8_parts`` (flake8's
rules, copied so that a run imports no flake8 module); ``files`` finds the files
to check as flake8 does; ``noqa`` applies ``# noqa`` as flake8 does; ``check``
reads, decodes and checks one file.  The analysis knows none of it
(``pyproject.toml``'s import contracts)."""
