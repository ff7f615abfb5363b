from plant.owner import Collector


class Sub(Collector):
    pass
