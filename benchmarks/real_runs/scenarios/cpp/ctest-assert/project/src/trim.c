#include <ctype.h>
#include <string.h>
#include "textutil.h"

char *trim(char *s)
{
    char *start = s;
    while (isspace((unsigned char)*start))
        start++;
    size_t len = strlen(start);
    while (len > 0 && isspace((unsigned char)start[len - 1]))
        len--;
    memmove(s, start, len);
    s[len] = '\0';
    return s;
}
