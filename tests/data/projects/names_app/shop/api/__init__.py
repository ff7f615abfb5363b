"""The handlers."""
