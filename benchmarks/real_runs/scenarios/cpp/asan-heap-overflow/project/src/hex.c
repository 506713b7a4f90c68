#include <stdlib.h>
#include "codec.h"

char *hex_encode(const unsigned char *data, size_t n)
{
    static const char digits[] = "0123456789abcdef";
    char *out = malloc(2 * n + 1);
    if (!out)
        return NULL;
    for (size_t i = 0; i < n; i++) {
        out[2 * i] = digits[data[i] >> 4];
        out[2 * i + 1] = digits[data[i] & 15];
    }
    out[2 * n] = '\0';
    return out;
}
