#include <deque>
#include "grid.hpp"

std::vector<GridPoint> shortest_path(const Grid &g, GridPoint from, GridPoint to)
{
    std::vector<int> prev(static_cast<size_t>(g.width() * g.height()), -1);
    std::deque<GridPoint> q{from};
    auto idx = [&](GridPoint p) { return static_cast<size_t>(p.y * g.width() + p.x); };
    prev[idx(from)] = static_cast<int>(idx(from));
    while (!q.empty()) {
        GridPoint p = q.front();
        q.pop_front();
        if (p == to)
            break;
        const GridPoint next[] = {{p.x + 1, p.y}, {p.x - 1, p.y}, {p.x, p.y + 1}, {p.x, p.y - 1}};
        for (GridPoint n : next) {
            if (g.blocked(n) || prev[idx(n)] != -1)
                continue;
            prev[idx(n)] = static_cast<int>(idx(p));
            q.push_back(n);
        }
    }
    std::vector<GridPoint> path;
    if (prev[idx(to)] == -1)
        return path;
    for (GridPoint p = to; !(p == from);) {
        path.insert(path.begin(), p);
        int i = prev[idx(p)];
        p = {i % g.width(), i / g.width()};
    }
    path.insert(path.begin(), from);
    return path;
}
