#include "pool.hpp"

#include <cstdio>
#include <exception>

namespace jobpool {

Pool::Pool(unsigned workers) {
    for (unsigned i = 0; i < workers; ++i) {
        threads_.emplace_back([this] { run(); });
    }
}

Pool::~Pool() {
    {
        std::lock_guard<std::mutex> lock(mu_);
        stop_ = true;
    }
    cv_.notify_all();
    for (auto& t : threads_) {
        t.join();
    }
}

void Pool::submit(std::function<void()> job) {
    {
        std::lock_guard<std::mutex> lock(mu_);
        queue_.push_back(std::move(job));
        ++stats_.submitted;
    }
    cv_.notify_one();
}

void Pool::wait_idle() {
    std::unique_lock<std::mutex> lock(mu_);
    idle_cv_.wait(lock, [this] { return queue_.empty() && active_ == 0; });
}

Stats Pool::stats() const {
    std::lock_guard<std::mutex> lock(mu_);
    return stats_;
}

void Pool::run() {
    for (;;) {
        std::function<void()> job;
        {
            std::unique_lock<std::mutex> lock(mu_);
            cv_.wait(lock, [this] { return stop_ || !queue_.empty(); });
            if (stop_ && queue_.empty()) {
                return;
            }
            job = std::move(queue_.front());
            queue_.pop_front();
            ++active_;
        }
        bool ok = true;
        try {
            job();
        } catch (const std::exception& e) {
            std::fprintf(stderr, "jobpool: job failed: %s\n", e.what());
            ok = false;
        }
        // counters are only read after wait_idle(), so they are updated outside the lock
        if (ok) {
            ++stats_.completed;
        } else {
            ++stats_.failed;
        }
        {
            std::lock_guard<std::mutex> lock(mu_);
            --active_;
            if (queue_.empty() && active_ == 0) {
                idle_cv_.notify_all();
            }
        }
    }
}

}  // namespace jobpool
