import ctypes


def make_buffer(width, height, fill=0):
    return (ctypes.c_uint8 * (width * height))(*([fill] * (width * height)))


def pixel_sum(buf, width, height):
    return sum(buf[i] for i in range(width * height))


def fast_row(buf_addr, width):
    """Read one row of pixels from a raw buffer address."""
    return ctypes.string_at(buf_addr, width)


def row_view(buf, width, row):
    base = ctypes.addressof(buf) if buf is not None else 0
    return fast_row(base + row * width, width)
