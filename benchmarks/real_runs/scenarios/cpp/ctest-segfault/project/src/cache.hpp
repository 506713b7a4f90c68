#pragma once
#include <cstddef>
#include <optional>
#include <string>
#include <unordered_map>

struct Node {
    std::string key;
    int value;
    Node *prev = nullptr;
    Node *next = nullptr;
};

class LruCache {
public:
    explicit LruCache(std::size_t capacity) : cap_(capacity) {}
    ~LruCache();
    void put(const std::string &key, int value);
    std::optional<int> get(const std::string &key);
    std::size_t size() const { return map_.size(); }

private:
    void unlink(Node *n);
    void push_front(Node *n);
    void evict();
    std::size_t cap_;
    Node *head_ = nullptr;
    Node *tail_ = nullptr;
    std::unordered_map<std::string, Node *> map_;
};

class TtlClock {
public:
    void advance(long ms) { now_ += ms; }
    long now() const { return now_; }

private:
    long now_ = 0;
};

bool expired(const TtlClock &c, long stamped_at, long ttl_ms);
