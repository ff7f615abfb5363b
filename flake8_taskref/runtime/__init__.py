"""``pytest --taskref-gc``: ``watch`` catches pending tasks that are
garbage-collected during a test (nothing there depends on pytest),
``attribution`` says which static finding each one confirms, ``pytest_plugin``
holds the pytest hooks. It reads the project's configuration through
``project.config``, as the command does, and imports no other face."""
