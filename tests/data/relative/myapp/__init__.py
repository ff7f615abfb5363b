"""A package whose helpers are named in the options (tests/test_relative_imports.py)."""
