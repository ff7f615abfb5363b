from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from plant.owner import Collector


def go(c: "Collector") -> None:
    c.start()  # error: TRF001:5
