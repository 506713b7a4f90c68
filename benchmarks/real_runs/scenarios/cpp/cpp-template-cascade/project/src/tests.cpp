#include <cstdio>
#include "grid.hpp"

int main()
{
    Grid g(4, 4);
    g.block({1, 0});
    g.block({1, 1});
    auto path = shortest_path(g, {0, 0}, {3, 0});
    std::printf("path length %zu\n", path.size());
    return path.size() == 8 ? 0 : 1;
}
