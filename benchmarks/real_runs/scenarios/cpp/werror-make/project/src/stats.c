#include <math.h>
#include "stats.h"

void summarize(const double *xs, size_t n, struct summary *out)
{
    double sum = 0, sq = 0;
    out->count = n;
    out->min = n ? xs[0] : 0;
    out->max = n ? xs[0] : 0;
    for (size_t i = 0; i < n; i++) {
        sum += xs[i];
        if (xs[i] < out->min) out->min = xs[i];
        if (xs[i] > out->max) out->max = xs[i];
    }
    out->mean = n ? sum / (double)n : 0;
    for (size_t i = 0; i < n; i++)
        sq += (xs[i] - out->mean) * (xs[i] - out->mean);
    out->stddev = n > 1 ? sqrt(sq / (double)(n - 1)) : 0;
}
