"""``pytest --taskref-gc``: ``watch`` catches pending tasks that are
garbage-collected during a test and attributes them to static findings
(nothing there depends on pytest); ``pytest_plugin`` holds the pytest hooks.
It reads the project's configuration through ``command.config`` and nothing
else of the command."""
