from fastsum._speedups import kahan_sum

__all__ = ["kahan_sum"]
