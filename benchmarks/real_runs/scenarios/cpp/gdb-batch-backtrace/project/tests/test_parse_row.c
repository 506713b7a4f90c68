#include <stdio.h>
#include <string.h>

#include "../src/csv.h"

static int expect_row(const char *text, size_t n, const char *const *want) {
    char buf[256];
    csv_row row = {0};
    strncpy(buf, text, sizeof buf - 1);
    buf[sizeof buf - 1] = '\0';
    size_t got = csv_parse_row(buf, &row);
    if (got != n) {
        printf("  %-28s: %zu fields, want %zu\n", text, got, n);
        return 1;
    }
    for (size_t i = 0; i < n; i++) {
        if (strcmp(row.fields[i], want[i]) != 0) {
            printf("  %-28s: field %zu is '%s', want '%s'\n", text, i, row.fields[i], want[i]);
            return 1;
        }
    }
    printf("  %-28s: ok\n", text);
    return 0;
}

int main(void) {
    int bad = 0;
    bad |= expect_row("a,b,c", 3, (const char *[]){"a", "b", "c"});
    bad |= expect_row(" id , name ", 2, (const char *[]){"id", "name"});
    bad |= expect_row("\"x,y\",z", 2, (const char *[]){"x,y", "z"});
    bad |= expect_row("1,\"two \"\"2\"\"\",3", 3, (const char *[]){"1", "two \"2\"", "3"});
    bad |= expect_row("last,empty,", 3, (const char *[]){"last", "empty", ""});
    printf("test_parse_row: %s\n", bad ? "FAIL" : "ok");
    return bad;
}
