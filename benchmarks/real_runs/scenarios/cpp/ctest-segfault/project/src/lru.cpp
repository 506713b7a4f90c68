#include "cache.hpp"

LruCache::~LruCache()
{
    for (Node *n = head_; n;) {
        Node *next = n->next;
        delete n;
        n = next;
    }
}

void LruCache::unlink(Node *n)
{
    (n->prev ? n->prev->next : head_) = n->next;
    (n->next ? n->next->prev : tail_) = n->prev;
    n->prev = n->next = nullptr;
}

void LruCache::push_front(Node *n)
{
    n->next = head_;
    if (head_)
        head_->prev = n;
    head_ = n;
    if (!tail_)
        tail_ = n;
}

void LruCache::evict()
{
    Node *victim = tail_;
    map_.erase(victim->key);
    unlink(victim);
    delete victim;
}

void LruCache::put(const std::string &key, int value)
{
    auto it = map_.find(key);
    if (it != map_.end()) {
        it->second->value = value;
        unlink(it->second);
        push_front(it->second);
        return;
    }
    if (map_.size() >= cap_)
        evict();
    Node *n = new Node{key, value};
    map_[key] = n;
    push_front(n);
}

std::optional<int> LruCache::get(const std::string &key)
{
    auto it = map_.find(key);
    if (it == map_.end())
        return std::nullopt;
    unlink(it->second);
    push_front(it->second);
    return it->second->value;
}
