#pragma once
#include <string>
#include <vector>

int string_hash(const std::string &s);

class SymbolTable {
public:
    explicit SymbolTable(int buckets = 64) : buckets_(static_cast<size_t>(buckets)) {}
    int intern(const std::string &name);
    bool contains(const std::string &name) const;

private:
    std::vector<std::vector<std::string>> buckets_;
    int next_id_ = 0;
};
