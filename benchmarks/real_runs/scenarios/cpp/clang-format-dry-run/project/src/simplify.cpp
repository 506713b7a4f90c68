#include <cmath>
#include <vector>
#include "geo/point.hpp"

namespace geo {

namespace {
double perpendicular(const Point &p, const Point &a, const Point &b) {
    double dx = b.x - a.x, dy = b.y - a.y;
    double len = std::hypot(dx, dy);
    if (len == 0.0) return distance(p, a);
    return std::fabs(dy * p.x - dx * p.y + b.x * a.y - b.y * a.x) / len;
}

void rdp(const std::vector<Point>& pts, std::size_t first, std::size_t last, double eps, std::vector<bool>& keep)
{
    double best = 0.0; std::size_t index = first;
    for (std::size_t i = first + 1; i < last; ++i) {
        double d = perpendicular(pts[i], pts[first], pts[last]);
        if (d > best) { best = d; index = i; }
    }
    if (best > eps) {
        keep[index] = true;
        rdp(pts, first, index, eps, keep);
        rdp(pts, index, last, eps, keep);
    }
}
}  // namespace

// Ramer-Douglas-Peucker simplification of an open polyline.
std::vector<Point> simplify(const std::vector<Point>& pts, double eps) {
    if (pts.size() < 3) return pts;
    std::vector<bool> keep(pts.size(), false);
    keep.front() = keep.back() = true;
    rdp(pts, 0, pts.size() - 1, eps, keep);
    std::vector<Point> out;
    for (std::size_t i = 0; i < pts.size(); ++i)
        if (keep[i]) out.push_back(pts[i]);
    return out;
}

}  // namespace geo
