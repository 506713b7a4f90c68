#ifndef TEXTUTIL_H
#define TEXTUTIL_H
#include <stddef.h>
/* Lower-case ASCII slug of `in` into `out` (at most n bytes, NUL included). */
void slugify(const char *in, char *out, size_t n);
/* Strip leading and trailing white space in place; returns s. */
char *trim(char *s);
/* Number of lines `text` takes when wrapped at `width` columns. */
int wrap_lines(const char *text, int width);
#endif
