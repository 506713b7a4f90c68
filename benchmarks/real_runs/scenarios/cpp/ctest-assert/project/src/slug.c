#include <ctype.h>
#include "textutil.h"

void slugify(const char *in, char *out, size_t n)
{
    size_t j = 0;
    if (n == 0)
        return;
    for (; *in && j + 1 < n; in++) {
        unsigned char c = (unsigned char)*in;
        if (isalnum(c))
            out[j++] = (char)tolower(c);
        else if (j > 0)
            out[j++] = '-';
    }
    while (j > 0 && out[j - 1] == '-')
        j--;
    out[j] = '\0';
}
