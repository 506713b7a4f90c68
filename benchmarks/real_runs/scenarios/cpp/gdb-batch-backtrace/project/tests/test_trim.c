#include <stdio.h>
#include <string.h>

#include "../src/csv.h"

int main(void) {
    char a[] = "  padded  ", b[] = "\t\n", c[] = "x";
    int bad = 0;
    bad |= strcmp(csv_trim(a), "padded") != 0;
    bad |= strcmp(csv_trim(b), "") != 0;
    bad |= strcmp(csv_trim(c), "x") != 0;
    printf("test_trim: %s\n", bad ? "FAIL" : "ok (3 checks)");
    return bad;
}
