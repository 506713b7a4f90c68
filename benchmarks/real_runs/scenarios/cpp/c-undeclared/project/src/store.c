#include <stdlib.h>
#include <string.h>
#include "store.h"

int store_init(struct store *s, size_t cap)
{
    s->items = calloc(cap, sizeof *s->items);
    s->len = 0;
    s->cap = cap;
    return s->items ? 0 : -1;
}

static int grow(struct store *s)
{
    size_t next = capacity * 2;
    struct entry *items = realloc(s->items, next * sizeof *items);
    if (!items)
        return -1;
    s->items = items;
    s->capacity = next;
    return 0;
}

int store_put(struct store *s, const char *key, const char *value)
{
    for (size_t i = 0; i < s->len; i++) {
        if (strcmp(s->items[i].key, key) == 0) {
            free(s->items[i].value);
            s->items[i].value = strdup(value);
            return 0;
        }
    }
    if (s->len == s->cap && grow(s) != 0)
        return -1;
    s->items[s->len].key = strdup(key);
    s->items[s->len].value = strdup(value);
    s->len++;
    return 0;
}

const char *store_get(const struct store *s, const char *key)
{
    for (size_t i = 0; i < s->len; i++)
        if (strcmp(s->items[i].key, key) == 0)
            return s->items[i].value;
    return NULL;
}

void store_free(struct store *s)
{
    for (size_t i = 0; i < s->len; i++) {
        free(s->items[i].key);
        free(s->items[i].value);
    }
    free(s->items);
}
