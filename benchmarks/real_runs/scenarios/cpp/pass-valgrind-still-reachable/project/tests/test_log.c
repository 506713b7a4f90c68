#include <stdio.h>

#include "../src/intern.h"

int main(void) {
    /* the logger must accept every level the daemon uses, including the error ones */
    log_line("INFO", "net", "listening on 127.0.0.1:7000");
    log_line("WARN", "net", "client 10.0.0.7 sent an oversized header, truncating");
    log_line("ERROR", "store", "write failed: No space left on device (simulated)");
    log_line("ERROR", "store", "retrying write in 50ms (attempt 2/3)");
    log_line("INFO", "store", "write ok after retry");
    int ok = intern_count() == 2;
    printf("test_log: %s (%zu components)\n", ok ? "ok" : "FAIL", intern_count());
    return !ok;
}
