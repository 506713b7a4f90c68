#ifndef STATS_H
#define STATS_H
#include <stddef.h>
struct summary {
    size_t count;
    double mean;
    double stddev;
    double min, max;
};
void summarize(const double *xs, size_t n, struct summary *out);
void print_report(const struct summary *s, const char *label);
#endif
