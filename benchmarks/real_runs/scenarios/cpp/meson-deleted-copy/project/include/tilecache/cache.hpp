#pragma once
#include <cstddef>
#include <list>
#include <optional>
#include <unordered_map>

#include "tilecache/tile.hpp"

namespace tilecache {

class Cache {
public:
    explicit Cache(std::size_t budget_bytes) : budget_(budget_bytes) {}
    void put(Tile tile);
    const Tile* get(const TileKey& key);
    std::optional<Tile> take(const TileKey& key);
    std::size_t size() const { return lru_.size(); }
    std::size_t bytes() const { return used_; }

private:
    void evict();
    std::size_t budget_;
    std::size_t used_ = 0;
    std::list<Tile> lru_;
    std::unordered_map<TileKey, std::list<Tile>::iterator, TileKeyHash> index_;
};

std::vector<std::uint8_t> encode(const Tile& tile);

}  // namespace tilecache
