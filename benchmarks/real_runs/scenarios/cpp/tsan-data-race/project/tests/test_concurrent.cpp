#include <atomic>
#include <chrono>
#include <cstdio>
#include <thread>

#include "pool.hpp"

int main() {
    std::atomic<int> sum{0};
    jobpool::Pool pool(4);
    for (int i = 1; i <= 200; ++i) {
        pool.submit([&sum, i] {
            std::this_thread::sleep_for(std::chrono::microseconds(200));  // a "real" job
            sum += i;
        });
    }
    pool.wait_idle();
    auto s = pool.stats();
    std::printf("test_concurrent: sum=%d completed=%zu\n", sum.load(), s.completed);
    return (sum == 20100 && s.completed == 200) ? 0 : 1;
}
