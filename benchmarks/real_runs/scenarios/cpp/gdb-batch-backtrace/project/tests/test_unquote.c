#include <stdio.h>
#include <string.h>

#include "../src/csv.h"

int main(void) {
    char a[] = "\"hello\"", b[] = "\"say \"\"hi\"\"\"", c[] = "plain", d[] = "\"";
    int bad = 0;
    bad |= strcmp(csv_unquote(a), "hello") != 0;
    bad |= strcmp(csv_unquote(b), "say \"hi\"") != 0;
    bad |= strcmp(csv_unquote(c), "plain") != 0;
    bad |= strcmp(csv_unquote(d), "\"") != 0;
    printf("test_unquote: %s\n", bad ? "FAIL" : "ok (4 checks)");
    return bad;
}
