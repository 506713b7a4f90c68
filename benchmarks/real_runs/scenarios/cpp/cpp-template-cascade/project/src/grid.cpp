#include "grid.hpp"

Grid::Grid(int w, int h) : w_(w), h_(h), blocked_(static_cast<size_t>(w * h), false) {}

void Grid::block(GridPoint p) { blocked_[static_cast<size_t>(p.y * w_ + p.x)] = true; }

bool Grid::blocked(GridPoint p) const
{
    if (p.x < 0 || p.y < 0 || p.x >= w_ || p.y >= h_)
        return true;
    return blocked_[static_cast<size_t>(p.y * w_ + p.x)];
}

int Grid::cost(GridPoint p) const
{
    auto it = costs_.find(p);
    return it == costs_.end() ? 1 : it->second;
}

void Grid::set_cost(GridPoint p, int c) { costs_[p] = c; }
