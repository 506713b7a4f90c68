#include "cache.hpp"

bool expired(const TtlClock &c, long stamped_at, long ttl_ms) { return c.now() - stamped_at >= ttl_ms; }
