#include "intern.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A process-lifetime table: never freed on purpose (valgrind reports it as still reachable). */
static char **table;
static size_t used, cap;

const char *intern(const char *s) {
    for (size_t i = 0; i < used; i++) {
        if (strcmp(table[i], s) == 0) {
            return table[i];
        }
    }
    if (used == cap) {
        cap = cap ? cap * 2 : 8;
        char **grown = realloc(table, cap * sizeof *table);
        if (!grown) {
            abort();
        }
        table = grown;
    }
    size_t n = strlen(s) + 1;
    table[used] = malloc(n);
    memcpy(table[used], s, n);
    return table[used++];
}

size_t intern_count(void) { return used; }

void log_line(const char *level, const char *component, const char *msg) {
    fprintf(stderr, "%-5s %s: %s\n", level, intern(component), msg);
}
