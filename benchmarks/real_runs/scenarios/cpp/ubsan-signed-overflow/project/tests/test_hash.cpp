#include <cstdio>
#include "symtab.hpp"

int main()
{
    const char *names[] = {"a", "main", "operator<<", "std::vector<int>::push_back"};
    for (const char *n : names)
        std::printf("hash(%s) = %d\n", n, string_hash(n));
    std::puts("test_hash: ok");
    return 0;
}
