"""The one analysis: a parsed module in, findings out.  It knows none of the
faces that use it (the flake8 plugin, the command, the fixer, the pytest
option); ``pyproject.toml``'s import contracts check that.

It flows one way (each module imports only those above it):

* ``names`` (the asyncio names it knows), ``options`` (what the user may
  configure), ``messages`` (the one table of codes, names and texts);
* ``shortcut``: the text search that tells which functions can matter;
* ``facts`` (what is recorded) and ``scopes`` (``Recorder``: the generic
  recording of bindings, uses and control flow, in one pass);
* ``asyncio_api`` (``ScopeVisitor``: what each asyncio API does to a handle)
  and ``rules`` (which handles are lost: the TRF codes);
* ``api``: ``analyse()`` and ``lint_file()``, what the faces call.
"""
