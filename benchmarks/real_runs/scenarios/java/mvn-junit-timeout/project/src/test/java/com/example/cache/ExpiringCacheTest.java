package com.example.cache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

class ExpiringCacheTest {

    @Test
    void keepsFreshEntries() {
        ExpiringCache<String, String> cache = new ExpiringCache<>(60_000);
        cache.put("a", "1");
        cache.sweep();
        assertEquals("1", cache.get("a"));
    }

    @Test
    void manualSweepEvictsExpired() throws InterruptedException {
        ExpiringCache<String, String> cache = new ExpiringCache<>(10);
        cache.put("a", "1");
        Thread.sleep(30);
        cache.sweep();
        assertNull(cache.get("a"));
    }

    @Test
    @Timeout(value = 2, unit = TimeUnit.SECONDS)
    void backgroundSweeperEvictsExpired() throws InterruptedException {
        ExpiringCache<String, String> cache = new ExpiringCache<>(500);
        cache.put("session-42", "alice");
        cache.startSweeper(50);
        cache.awaitSweep();
        assertEquals(0, cache.size());
    }
}
