/* b64: base64-encode stdin to stdout (RFC 4648), wrapping at 76 columns unless -w 0. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char ALPHABET[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

static int col, wrap = 76;

static void put(char c) {
    if (wrap > 0 && col == wrap) {
        putchar('\n');
        col = 0;
    }
    putchar(c);
    col++;
}

static void encode_block(const unsigned char *in, size_t n) {
    unsigned v = (unsigned)in[0] << 16 | (n > 1 ? (unsigned)in[1] << 8 : 0) | (n > 2 ? in[2] : 0);
    put(ALPHABET[v >> 18 & 63]);
    put(ALPHABET[v >> 12 & 63]);
    put(n > 1 ? ALPHABET[v >> 6 & 63] : '=');
    put(n > 1 ? ALPHABET[v & 63] : '=');
}

int main(int argc, char **argv) {
    if (argc == 3 && strcmp(argv[1], "-w") == 0) {
        wrap = atoi(argv[2]);
    } else if (argc != 1) {
        fprintf(stderr, "usage: b64 [-w COLS]\n");
        return 2;
    }
    unsigned char buf[3];
    size_t n;
    while ((n = fread(buf, 1, 3, stdin)) > 0) {
        encode_block(buf, n);
        if (n < 3) {
            break;
        }
    }
    if (ferror(stdin)) {
        perror("b64: read error");
        return 1;
    }
    if (col > 0) {
        putchar('\n');
    }
    return 0;
}
