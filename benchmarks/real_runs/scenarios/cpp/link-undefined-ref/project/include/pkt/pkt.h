#ifndef PKT_H
#define PKT_H
#include <stddef.h>
#include <stdint.h>

struct pkt_header {
    uint8_t version;
    uint8_t flags;
    uint16_t length;
    uint32_t seq;
};

struct pkt_buffer {
    uint8_t *data;
    size_t len;
};

int pkt_buffer_from_hex(struct pkt_buffer *b, const char *hex);
void pkt_buffer_free(struct pkt_buffer *b);
uint16_t pkt_checksum(const uint8_t *data, size_t len);
int pkt_parse_header(const struct pkt_buffer *b, struct pkt_header *out);
#endif
