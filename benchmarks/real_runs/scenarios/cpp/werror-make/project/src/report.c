#include <stdio.h>
#include "stats.h"

void print_report(const struct summary *s, const char *label)
{
    int width = 12;
    int precision = 3;
    printf("== %s ==\n", label);
    printf("%-*s %d\n", width, "count", s->count);
    printf("%-*s %.3f\n", width, "mean", s->mean);
    printf("%-*s %.3f\n", width, "stddev", s->stddev);
    printf("%-*s %.3f .. %.3f\n", width, "range", s->min, s->max);
    printf("%-*s %lu%%\n", width, "coverage", s->count * 100 / 64);
}
