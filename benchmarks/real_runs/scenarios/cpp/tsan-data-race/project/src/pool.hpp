#pragma once
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace jobpool {

struct Stats {
    std::size_t submitted = 0;
    std::size_t completed = 0;
    std::size_t failed = 0;
};

class Pool {
public:
    explicit Pool(unsigned workers);
    ~Pool();
    Pool(const Pool&) = delete;
    Pool& operator=(const Pool&) = delete;

    void submit(std::function<void()> job);
    void wait_idle();
    Stats stats() const;

private:
    void run();

    mutable std::mutex mu_;
    std::condition_variable cv_;
    std::condition_variable idle_cv_;
    std::deque<std::function<void()>> queue_;
    std::vector<std::thread> threads_;
    std::size_t active_ = 0;
    bool stop_ = false;
    Stats stats_;
};

}  // namespace jobpool
