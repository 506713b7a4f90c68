#include <stdio.h>
#include <string.h>

#include "../src/intern.h"

int main(int argc, char **argv) {
    (void)argv;
    int verbose = argc > 1;
    const char *a = intern("alpha"), *b = intern("beta");
    char buf[16];
    strcpy(buf, "alpha");
    int bad = 0;
    bad |= intern(buf) != a;
    bad |= a == b;
    for (int i = 0; i < 20; i++) {
        snprintf(buf, sizeof buf, "key-%d", i % 12);
        intern(buf);
    }
    bad |= intern_count() != 14;
    if (verbose) {
        printf("interned %zu strings\n", intern_count());
    }
    printf("test_intern: %s\n", bad ? "FAIL" : "ok");
    return bad;
}
