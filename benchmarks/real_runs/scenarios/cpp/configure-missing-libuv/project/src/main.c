#include <stdio.h>
#include <string.h>
#include <uv.h>

#include "config.h"

int main(int argc, char **argv) {
    uv_loop_t loop;
    uv_loop_init(&loop);
    if (argc > 1 && strcmp(argv[1], "--self-test") == 0) {
        printf("%s %s self-test ok\n", PACKAGE, VERSION);
    }
    uv_run(&loop, UV_RUN_DEFAULT);
    return uv_loop_close(&loop);
}
