#include "csv.h"

#include <ctype.h>
#include <string.h>

char *csv_trim(char *field) {
    while (*field && isspace((unsigned char)*field)) {
        field++;
    }
    size_t n = strlen(field);
    while (n > 0 && isspace((unsigned char)field[n - 1])) {
        field[--n] = '\0';
    }
    return field;
}

char *csv_unquote(char *field) {
    size_t n = strlen(field);
    if (n < 2 || field[0] != '"' || field[n - 1] != '"') {
        return field;
    }
    char *out = field, *in = field + 1, *end = field + n - 1;
    while (in < end) {
        if (in[0] == '"' && in + 1 < end && in[1] == '"') {
            in++;
        }
        *out++ = *in++;
    }
    *out = '\0';
    return field;
}

size_t csv_parse_row(char *line, csv_row *row) {
    row->count = 0;
    char *start = line;
    int quoted = 0;
    for (char *p = line;; p++) {
        if (*p == '"') {
            quoted = !quoted;
        } else if ((*p == ',' && !quoted) || *p == '\0' || *p == '\n') {
            int last = *p != ',';
            *p = '\0';
            if (row->count < CSV_MAX_FIELDS) {
                row->fields[row->count++] = csv_unquote(csv_trim(start));
            }
            if (last) {
                break;
            }
            start = p + 1;
        }
    }
    /* a trailing comma means one more, empty, field */
    if (row->count > 0 && *row->fields[row->count - 1] == '\0') {
        row->fields[row->count - 1] = NULL;
    }
    return row->count;
}
