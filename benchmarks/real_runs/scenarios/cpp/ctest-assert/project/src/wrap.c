#include <string.h>
#include "textutil.h"

int wrap_lines(const char *text, int width)
{
    int lines = 0, col = 0;
    const char *p = text;
    while (*p) {
        size_t word = strcspn(p, " ");
        if (col > 0 && col + 1 + (int)word > width) {
            lines++;
            col = 0;
        }
        col += (col > 0) + (int)word;
        p += word;
        while (*p == ' ')
            p++;
    }
    return lines + (col > 0);
}
