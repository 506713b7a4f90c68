#include <stdio.h>
#include <string.h>
#include "store.h"

static int selftest(void)
{
    struct store s;
    if (store_init(&s, 2) != 0)
        return 1;
    store_put(&s, "a", "1");
    store_put(&s, "b", "2");
    store_put(&s, "c", "3");
    int ok = strcmp(store_get(&s, "c"), "3") == 0;
    store_free(&s);
    printf("selftest: %s\n", ok ? "ok" : "FAILED");
    return !ok;
}

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "selftest") == 0)
        return selftest();
    printf("kvstore %lu\n", kv_hash("kv"));
    return 0;
}
