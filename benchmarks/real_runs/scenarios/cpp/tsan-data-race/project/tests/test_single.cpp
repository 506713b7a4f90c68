#include <cstdio>

#include "pool.hpp"

int main() {
    int value = 0;
    {
        jobpool::Pool pool(1);
        pool.submit([&value] { value = 42; });
        pool.wait_idle();
    }
    std::printf("test_single: value=%d\n", value);
    return value == 42 ? 0 : 1;
}
