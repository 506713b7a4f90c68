def kelvin(celsius: float) -> float:
    return celsius + 273.15
