#include <string.h>
#include "cfgparse.h"

int cfg_check(const char *name, const char *text, FILE *diag)
{
    int errors = 0, line = 1;
    const char *p = text;
    while (*p) {
        size_t len = strcspn(p, "\n");
        if (len > 0 && p[0] == '[') {
            if (memchr(p, ']', len) == NULL) {
                fprintf(diag, "%s:%d: error: unterminated section header\n", name, line);
                errors++;
            }
        } else if (len > 0 && p[0] != '#' && memchr(p, '=', len) == NULL) {
            fprintf(diag, "%s:%d: error: expected '=' after key\n", name, line);
            errors++;
        }
        p += len;
        if (*p == '\n')
            p++;
        line++;
    }
    return errors;
}
