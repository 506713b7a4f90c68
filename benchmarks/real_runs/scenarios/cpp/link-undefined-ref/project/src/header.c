#include "pkt/pkt.h"

int pkt_parse_header(const struct pkt_buffer *b, struct pkt_header *out)
{
    if (b->len < 8)
        return -1;
    out->version = b->data[0] >> 4;
    out->flags = b->data[1];
    out->length = (uint16_t)(b->data[2] << 8 | b->data[3]);
    out->seq = (uint32_t)b->data[4] << 24 | (uint32_t)b->data[5] << 16 |
               (uint32_t)b->data[6] << 8 | b->data[7];
    return 0;
}
