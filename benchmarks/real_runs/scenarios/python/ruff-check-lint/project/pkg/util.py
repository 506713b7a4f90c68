from typing import List, Optional


def first(xs: List[int]) -> Optional[int]:
    return xs[0] if xs else None
