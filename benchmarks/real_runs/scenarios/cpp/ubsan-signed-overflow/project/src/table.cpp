#include <algorithm>
#include "symtab.hpp"

int SymbolTable::intern(const std::string &name)
{
    auto &b = buckets_[static_cast<size_t>(string_hash(name)) % buckets_.size()];
    if (std::find(b.begin(), b.end(), name) == b.end())
        b.push_back(name);
    return next_id_++;
}

bool SymbolTable::contains(const std::string &name) const
{
    const auto &b = buckets_[static_cast<size_t>(string_hash(name)) % buckets_.size()];
    return std::find(b.begin(), b.end(), name) != b.end();
}
