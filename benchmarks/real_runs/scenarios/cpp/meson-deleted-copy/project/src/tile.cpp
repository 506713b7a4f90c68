#include "tilecache/tile.hpp"

#include <utility>

namespace tilecache {

Tile::Tile(TileKey key, std::unique_ptr<std::vector<std::uint8_t>> pixels)
    : key_(key), pixels_(std::move(pixels)) {}

}  // namespace tilecache
