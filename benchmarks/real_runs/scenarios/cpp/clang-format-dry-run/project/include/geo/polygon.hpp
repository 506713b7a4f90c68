#pragma once
#include <vector>

#include "geo/point.hpp"

namespace geo {

class Polygon {
   public:
    explicit Polygon(std::vector<Point> pts) : pts_(std::move(pts)) {}
    double area() const;
    double perimeter() const;
    bool contains(const Point& p) const;
    const std::vector<Point>& points() const { return pts_; }

   private:
    std::vector<Point> pts_;
};

}  // namespace geo
