#include <cstdio>
#include <vector>

#include "geo/polygon.hpp"

namespace geo {
std::vector<Point> simplify(const std::vector<Point>& pts, double eps);
}

int main() {
    geo::Polygon square({{0, 0}, {4, 0}, {4, 4}, {0, 4}});
    std::printf("area=%.1f perimeter=%.1f inside=%d\n", square.area(), square.perimeter(),
                square.contains({1, 1}));
    auto line = geo::simplify({{0, 0}, {1, 0.01}, {2, 0}, {3, 5}, {4, 0}}, 0.1);
    std::printf("simplified to %zu points\n", line.size());
    return 0;
}
