#include <stdlib.h>
#include <string.h>
#include "pkt/pkt.h"

static int nibble(char c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

int pkt_buffer_from_hex(struct pkt_buffer *b, const char *hex)
{
    size_t n = strlen(hex);
    if (n % 2)
        return -1;
    b->data = malloc(n / 2);
    b->len = n / 2;
    for (size_t i = 0; i < n / 2; i++) {
        int hi = nibble(hex[2 * i]), lo = nibble(hex[2 * i + 1]);
        if (hi < 0 || lo < 0)
            return -1;
        b->data[i] = (uint8_t)(hi << 4 | lo);
    }
    return 0;
}

void pkt_buffer_free(struct pkt_buffer *b)
{
    free(b->data);
    b->data = NULL;
    b->len = 0;
}
