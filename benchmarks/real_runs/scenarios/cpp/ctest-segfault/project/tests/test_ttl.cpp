#include <cstdio>
#include "cache.hpp"

int main()
{
    TtlClock c;
    c.advance(500);
    bool ok = !expired(c, 0, 1000);
    c.advance(600);
    ok = ok && expired(c, 0, 1000);
    std::printf("test_ttl: %s\n", ok ? "ok" : "FAIL");
    return ok ? 0 : 1;
}
