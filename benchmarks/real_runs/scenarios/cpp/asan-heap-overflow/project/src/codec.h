#ifndef CODEC_H
#define CODEC_H
#include <stddef.h>
/* Returns a malloc'd NUL-terminated string; the caller frees it. */
char *b64_encode(const unsigned char *data, size_t n);
char *hex_encode(const unsigned char *data, size_t n);
#endif
