#include "symtab.hpp"

int string_hash(const std::string &s)
{
    int h = 2166136;
    for (unsigned char c : s)
        h = h * 16777619 + c;
    return h < 0 ? -h : h;
}
