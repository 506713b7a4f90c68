#include "store.h"

unsigned long kv_hash(const char *s)
{
    unsigned long h = 5381;
    int c;
    while ((c = (unsigned char)*s++) != 0)
        h = h * 33 + c;
    return h;
}
