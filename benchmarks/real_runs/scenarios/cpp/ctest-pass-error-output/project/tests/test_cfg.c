#include <stdio.h>
#include <string.h>
#include "cfgparse.h"

static int expect_errors(const char *text, int want)
{
    int got = cfg_check("config.ini", text, stdout);
    printf("cfg_check reported %d error(s), expected %d\n", got, want);
    return got == want ? 0 : 1;
}

int main(int argc, char **argv)
{
    const char *which = argc > 1 ? argv[1] : "valid";
    if (strcmp(which, "valid") == 0)
        return expect_errors("# ok\n[main]\nname = demo\n", 0);
    if (strcmp(which, "missing_equals") == 0)
        return expect_errors("[main]\nname = demo\nverbose\n", 1);
    if (strcmp(which, "unterminated") == 0)
        return expect_errors("[main\nname = demo\n", 1);
    if (strcmp(which, "strict_garbage") == 0) {
        /* strict mode: any error makes the tool exit non-zero (the test is WILL_FAIL) */
        int n = cfg_check("garbage.ini", "%%%\n", stderr);
        fprintf(stderr, "cfgparse: %d error(s), refusing to continue\n", n);
        return n ? 1 : 0;
    }
    return 2;
}
