#include <stdlib.h>
#include "codec.h"

static const char TABLE[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

char *b64_encode(const unsigned char *data, size_t n)
{
    size_t out_len = 4 * ((n + 2) / 3);
    char *out = malloc(out_len);
    if (!out)
        return NULL;
    size_t j = 0;
    for (size_t i = 0; i < n; i += 3) {
        unsigned v = (unsigned)data[i] << 16;
        if (i + 1 < n) v |= (unsigned)data[i + 1] << 8;
        if (i + 2 < n) v |= data[i + 2];
        out[j++] = TABLE[(v >> 18) & 63];
        out[j++] = TABLE[(v >> 12) & 63];
        out[j++] = i + 1 < n ? TABLE[(v >> 6) & 63] : '=';
        out[j++] = i + 2 < n ? TABLE[v & 63] : '=';
    }
    out[j] = '\0';
    return out;
}
