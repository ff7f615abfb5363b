from plant.owner import Collector

collector = Collector()
