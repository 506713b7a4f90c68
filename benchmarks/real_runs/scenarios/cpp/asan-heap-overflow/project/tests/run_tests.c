#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "codec.h"

static int run = 0, failed = 0;

static void expect(const char *name, char *got, const char *want)
{
    run++;
    if (strcmp(got, want) != 0) {
        failed++;
        printf("FAIL %s: got \"%s\", want \"%s\"\n", name, got, want);
    } else {
        printf("ok   %s\n", name);
    }
    fflush(stdout);
    free(got);
}

int main(void)
{
    expect("hex_empty", hex_encode((const unsigned char *)"", 0), "");
    expect("hex_bytes", hex_encode((const unsigned char *)"\x01\xab", 2), "01ab");
    expect("b64_empty", b64_encode((const unsigned char *)"", 0), "");
    expect("b64_man", b64_encode((const unsigned char *)"Man", 3), "TWFu");
    expect("b64_pad", b64_encode((const unsigned char *)"Ma", 2), "TWE=");
    printf("%d tests, %d failed\n", run, failed);
    return failed != 0;
}
