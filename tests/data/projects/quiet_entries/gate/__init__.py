"""Context managers of another module entered between a spawn and the ``try``
that finishes it (TRF007, ``gaps.py``): an entry that never suspends is no wait."""
