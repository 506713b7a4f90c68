#include "geo/polygon.hpp"

#include <cmath>
#include <cstddef>

namespace geo {

double Polygon::area() const {
    double twice = 0.0;
    for (std::size_t i = 0, n = pts_.size(); i < n; ++i) {
        const Point& a = pts_[i];
        const Point& b = pts_[(i + 1) % n];
        twice += a.x * b.y - b.x * a.y;
    }
    return std::fabs(twice) / 2.0;
}

double Polygon::perimeter() const {
    double sum = 0.0;
    for (std::size_t i = 0, n = pts_.size(); i < n; ++i) {
        sum += distance(pts_[i], pts_[(i + 1) % n]);
    }
    return sum;
}

bool Polygon::contains(const Point& p) const {
    bool inside = false;
    for (std::size_t i = 0, j = pts_.size() - 1; i < pts_.size(); j = i++) {
        const Point& a = pts_[i];
        const Point& b = pts_[j];
        if ((a.y > p.y) != (b.y > p.y) && p.x < (b.x - a.x) * (p.y - a.y) / (b.y - a.y) + a.x) {
            inside = !inside;
        }
    }
    return inside;
}

}  // namespace geo
