#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include "ini.h"

static char *strip(char *s)
{
    while (isspace((unsigned char)*s))
        s++;
    char *end = s + strlen(s);
    while (end > s && isspace((unsigned char)end[-1]))
        *--end = '\0';
    return s;
}

int ini_parse(const char *text, ini_handler handler, void *user)
{
    char *copy = strdup(text);
    char *section = strdup("");
    int lineno = 0, bad = 0;
    char *save = NULL;
    for (char *line = strtok_r(copy, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        lineno++;
        line = strip(line);
        if (*line == '\0' || *line == ';' || *line == '#')
            continue;
        if (*line == '[') {
            char *close = strchr(line, ']');
            if (!close) {
                bad = lineno;
                break;
            }
            *close = '\0';
            section = strdup(strip(line + 1));
            continue;
        }
        char *eq = strchr(line, '=');
        if (!eq) {
            bad = lineno;
            break;
        }
        *eq = '\0';
        if (handler(user, section, strip(line), strip(eq + 1)) != 0) {
            bad = lineno;
            break;
        }
    }
    free(section);
    free(copy);
    return bad;
}
