#include <stdio.h>
#include "util.h"

int main(int argc, char **argv) {
    printf("%s\n", greeting("ci"));
    return 0;
}
