from dataclasses import dataclass


@dataclass(frozen=True)
class Reading:
    station: str
    celsius: float

    @property
    def fahrenheit(self) -> float:
        return self.celsius * 9 / 5 + 32


def parse(line: str) -> Reading:
    station, value = line.split(",")
    return Reading(station.strip(), float(value))
