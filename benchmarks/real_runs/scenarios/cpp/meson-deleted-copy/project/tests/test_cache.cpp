#include <cassert>
#include <cstdio>
#include <memory>

#include "tilecache/cache.hpp"

using namespace tilecache;

static Tile make(std::uint32_t x, std::size_t n) {
    return Tile({3, x, 0}, std::make_unique<std::vector<std::uint8_t>>(n, 0x7f));
}

int main() {
    Cache c(1000);
    c.put(make(1, 400));
    c.put(make(2, 400));
    c.put(make(3, 400));
    assert(c.size() == 2);
    assert(c.get({3, 1, 0}) == nullptr);
    auto t = c.take({3, 2, 0});
    assert(t && t->bytes() == 400);
    std::printf("cache ok: %zu tiles, %zu bytes\n", c.size(), c.bytes());
    return 0;
}
