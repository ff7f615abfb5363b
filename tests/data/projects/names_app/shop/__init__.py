"""A project of several packages for issue 32: relative imports, bases and classes of
other modules."""
