"""A package of the project's own shims."""
