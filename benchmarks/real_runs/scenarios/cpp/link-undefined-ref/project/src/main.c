#include <stdio.h>
#include <string.h>
#include "pkt/pkt.h"

int main(int argc, char **argv)
{
    const char *hex = "4001001c0000002a";
    if (argc > 1 && strcmp(argv[1], "--self-check") != 0)
        hex = argv[1];
    struct pkt_buffer b;
    struct pkt_header h;
    if (pkt_buffer_from_hex(&b, hex) != 0 || pkt_parse_header(&b, &h) != 0) {
        fprintf(stderr, "pktdump: malformed packet\n");
        return 1;
    }
    printf("v%u flags=%#x len=%u seq=%u csum=%#06x\n", h.version, h.flags, h.length, h.seq,
           pkt_checksum(b.data, b.len));
    pkt_buffer_free(&b);
    return 0;
}
