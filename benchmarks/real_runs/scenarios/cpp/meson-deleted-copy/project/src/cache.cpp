#include "tilecache/cache.hpp"

#include <utility>

namespace tilecache {

void Cache::put(Tile tile) {
    if (auto it = index_.find(tile.key()); it != index_.end()) {
        used_ -= it->second->bytes();
        lru_.erase(it->second);
        index_.erase(it);
    }
    used_ += tile.bytes();
    lru_.push_front(std::move(tile));
    index_[lru_.front().key()] = lru_.begin();
    evict();
}

const Tile* Cache::get(const TileKey& key) {
    auto it = index_.find(key);
    if (it == index_.end()) {
        return nullptr;
    }
    lru_.splice(lru_.begin(), lru_, it->second);
    return &*it->second;
}

std::optional<Tile> Cache::take(const TileKey& key) {
    auto it = index_.find(key);
    if (it == index_.end()) {
        return std::nullopt;
    }
    // keep a copy for the caller, then drop our entry
    Tile out = *it->second;
    used_ -= out.bytes();
    lru_.erase(it->second);
    index_.erase(it);
    return out;
}

void Cache::evict() {
    while (used_ > budget_ && lru_.size() > 1) {
        const Tile& last = lru_.back();
        used_ -= last.bytes();
        index_.erase(last.key());
        lru_.pop_back();
    }
}

}  // namespace tilecache
