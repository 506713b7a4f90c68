#include <cstdio>
#include "cache.hpp"

static int failures = 0;
#define CHECK(cond)                                                             \
    do {                                                                        \
        if (!(cond)) {                                                          \
            std::printf("%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond); \
            failures++;                                                         \
        }                                                                       \
    } while (0)

int main()
{
    std::puts("[ RUN ] lru_basic");
    {
        LruCache c(2);
        c.put("a", 1);
        c.put("b", 2);
        c.get("a");
        c.put("c", 3);
        CHECK(!c.get("b"));
        CHECK(c.get("a") == 1);
        CHECK(c.size() == 2);
    }
    std::puts("[  OK ] lru_basic");
    std::fflush(stdout);
    std::puts("[ RUN ] lru_zero_capacity");
    std::fflush(stdout);
    {
        LruCache c(0);
        c.put("a", 1);
        CHECK(c.size() == 0);
    }
    std::puts("[  OK ] lru_zero_capacity");
    return failures != 0;
}
