#pragma once
#include <cstdint>
#include <memory>
#include <vector>

namespace tilecache {

struct TileKey {
    std::uint32_t z, x, y;
    bool operator==(const TileKey& o) const { return z == o.z && x == o.x && y == o.y; }
};

struct TileKeyHash {
    std::size_t operator()(const TileKey& k) const noexcept {
        return (std::size_t{k.z} << 48) ^ (std::size_t{k.x} << 24) ^ k.y;
    }
};

// Tiles own their pixel buffer; they are moved, never copied.
class Tile {
public:
    Tile(TileKey key, std::unique_ptr<std::vector<std::uint8_t>> pixels);
    const TileKey& key() const { return key_; }
    std::size_t bytes() const { return pixels_ ? pixels_->size() : 0; }
    const std::vector<std::uint8_t>& pixels() const { return *pixels_; }

private:
    TileKey key_;
    std::unique_ptr<std::vector<std::uint8_t>> pixels_;
};

}  // namespace tilecache
