"""Great-circle distances."""

import math

EARTH_RADIUS_KM = 6371.0


def haversine(a, b):
    """Distance in kilometres between two (lat, lon) points.

    Args:
        a: the first point, (latitude, longitude) in degrees.
        b: the second point.

    Returns:
        The great-circle distance in km.
    """
    lat1, lon1 = map(math.radians, a)
    lat2, lon2 = map(math.radians, b)
    h = math.sin((lat2 - lat1) / 2) ** 2 + math.cos(lat1) * math.cos(lat2) * math.sin((lon2 - lon1) / 2) ** 2
    return 2 * EARTH_RADIUS_KM * math.asin(math.sqrt(h))


def initial_bearing(a, b):
    """Initial bearing from a to b in degrees.

    See `bearing-notes`_ in the docs.
    """
    lat1, lon1 = map(math.radians, a)
    lat2, lon2 = map(math.radians, b)
    x = math.sin(lon2 - lon1) * math.cos(lat2)
    y = math.cos(lat1) * math.sin(lat2) - math.sin(lat1) * math.cos(lat2) * math.cos(lon2 - lon1)
    return (math.degrees(math.atan2(x, y)) + 360) % 360
