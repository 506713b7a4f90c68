#include <cstdio>
#include "symtab.hpp"

int main()
{
    SymbolTable t;
    bool ok = !t.contains("");
    std::printf("test_table: %s\n", ok ? "ok" : "FAIL");
    return ok ? 0 : 1;
}
