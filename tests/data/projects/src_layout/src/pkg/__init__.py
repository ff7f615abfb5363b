"""A package under src/, one of the default source roots."""
