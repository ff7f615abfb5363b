from plant.owner import Collector

Kind = Collector
