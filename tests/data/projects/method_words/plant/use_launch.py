from typing import Any

from plant.helpers import launch


def go(c: Any) -> None:
    launch(c)  # error: TRF001:5
