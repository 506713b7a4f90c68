#pragma once
#include <cmath>

namespace geo {

struct Point {
    double x = 0.0;
    double y = 0.0;
};

inline double distance(const Point& a, const Point& b) { return std::hypot(a.x - b.x, a.y - b.y); }

}  // namespace geo
