#pragma once
#include <map>
#include <string>
#include <vector>

struct GridPoint {
    int x = 0;
    int y = 0;
    bool operator==(const GridPoint &o) const { return x == o.x && y == o.y; }
};

class Grid {
public:
    Grid(int w, int h);
    void block(GridPoint p);
    bool blocked(GridPoint p) const;
    int cost(GridPoint p) const;
    void set_cost(GridPoint p, int c);
    int width() const { return w_; }
    int height() const { return h_; }

private:
    int w_, h_;
    std::map<GridPoint, int> costs_;
    std::vector<bool> blocked_;
};

std::vector<GridPoint> shortest_path(const Grid &g, GridPoint from, GridPoint to);
