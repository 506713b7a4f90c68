#include <stdio.h>
#include "util.h"

const char *greeting(const char *who) {
    static char buf[64];
    snprintf(buf, sizeof buf, "hello, %s", who);
    return buf;
}
