#include <cstdio>
#include <stdexcept>

#include "pool.hpp"

int main() {
    jobpool::Pool pool(1);
    pool.submit([] {});
    pool.submit([] { throw std::runtime_error("expected failure from test_stats"); });
    pool.submit([] {});
    pool.wait_idle();
    auto s = pool.stats();
    std::printf("test_stats: submitted=%zu completed=%zu failed=%zu\n", s.submitted, s.completed,
                s.failed);
    return (s.submitted == 3 && s.completed == 2 && s.failed == 1) ? 0 : 1;
}
