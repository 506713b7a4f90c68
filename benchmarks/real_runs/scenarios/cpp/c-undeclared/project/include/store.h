#ifndef KV_STORE_H
#define KV_STORE_H
#include <stddef.h>

struct entry {
    char *key;
    char *value;
};

struct store {
    struct entry *items;
    size_t len;
    size_t cap;
};

unsigned long kv_hash(const char *s);
int store_init(struct store *s, size_t cap);
int store_put(struct store *s, const char *key, const char *value);
const char *store_get(const struct store *s, const char *key);
void store_free(struct store *s);
#endif
