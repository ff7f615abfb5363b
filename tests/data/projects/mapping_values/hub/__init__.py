"""A mapping whose values' class is written down (``dict[str, Station]``):
a local bound to one of its values (``self.stations[host]``, ``.get(host)``,
``.pop(host)``) or the value itself is typed by it, in another module too."""
