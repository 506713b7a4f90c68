#include <stdio.h>
#include "stats.h"

int main(void)
{
    double xs[64];
    size_t n = 0;
    while (n < 64 && scanf("%lf", &xs[n]) == 1)
        n++;
    struct summary s;
    summarize(xs, n, &s);
    print_report(&s, "stdin");
    return 0;
}
