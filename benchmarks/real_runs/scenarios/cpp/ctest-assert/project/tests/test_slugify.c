#include <assert.h>
#include <stdio.h>
#include <string.h>
#include "textutil.h"

static void check(const char *in, const char *want)
{
    char out[64];
    slugify(in, out, sizeof out);
    printf("slugify(\"%s\") = \"%s\"\n", in, out);
    assert(strcmp(out, want) == 0);
}

int main(void)
{
    check("Hello World", "hello-world");
    check("C++ & Rust", "c-rust");
    check("  leading", "leading");
    puts("test_slugify: all passed");
    return 0;
}
