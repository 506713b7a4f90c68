#include <zlib.h>

#include <stdexcept>

#include "config.h"
#include "tilecache/cache.hpp"

namespace tilecache {

std::vector<std::uint8_t> encode(const Tile& tile) {
    const auto& px = tile.pixels();
    uLongf len = compressBound(px.size());
    std::vector<std::uint8_t> out(len);
    int rc = compress2(out.data(), &len, px.data(), px.size(), Z_BEST_SPEED);
    if (rc != Z_OK) {
        throw std::runtime_error("zlib compress2 failed");
    }
    out.resize(len);
    return out;
}

}  // namespace tilecache
