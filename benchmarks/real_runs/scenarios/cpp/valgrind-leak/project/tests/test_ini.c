#include <stdio.h>
#include <string.h>
#include "ini.h"

struct seen {
    int count;
    char last[64];
};

static int collect(void *user, const char *section, const char *key, const char *value)
{
    struct seen *s = user;
    s->count++;
    snprintf(s->last, sizeof s->last, "%s.%s=%s", section, key, value);
    return 0;
}

int main(void)
{
    int failed = 0;
    struct seen s = {0};
    const char *doc = "; comment\n[server]\nhost = example.org\nport=8080\n\n[client]\nretries = 3\n";
    if (ini_parse(doc, collect, &s) != 0 || s.count != 3 || strcmp(s.last, "client.retries=3") != 0) {
        printf("FAIL parse_sections: count=%d last=%s\n", s.count, s.last);
        failed++;
    } else {
        puts("PASS parse_sections");
    }
    struct seen t = {0};
    int bad = ini_parse("[ok]\nkey\n", collect, &t);
    if (bad != 2) {
        printf("FAIL reports_bad_line: got %d\n", bad);
        failed++;
    } else {
        puts("PASS reports_bad_line (line 2: expected '=' after key)");
    }
    printf("%d failed\n", failed);
    return failed != 0;
}
