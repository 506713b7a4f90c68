package com.example.cache;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/** A tiny cache whose entries expire; a background sweeper evicts them. */
public final class ExpiringCache<K, V> {
    private final Map<K, V> entries = new ConcurrentHashMap<>();
    private final Map<K, Long> deadlines = new ConcurrentHashMap<>();
    private final long ttlMillis;
    private final CountDownLatch firstSweep = new CountDownLatch(1);

    public ExpiringCache(long ttlMillis) {
        this.ttlMillis = ttlMillis;
    }

    public void put(K key, V value) {
        entries.put(key, value);
        deadlines.put(key, System.currentTimeMillis() + ttlMillis);
    }

    public V get(K key) {
        return entries.get(key);
    }

    public int size() {
        return entries.size();
    }

    /** Evicts what has expired. */
    public void sweep() {
        long now = System.currentTimeMillis();
        deadlines.forEach((k, d) -> {
            if (d <= now) {
                entries.remove(k);
                deadlines.remove(k);
            }
        });
        firstSweep.countDown();
    }

    /** Blocks until the sweeper thread has run once. */
    public void awaitSweep() throws InterruptedException {
        firstSweep.await();
    }

    /** Starts the background sweeper. */
    public Thread startSweeper(long periodMillis) {
        Thread t = new Thread(() -> {
            try {
                // the sweeper waits one full TTL before its first pass
                TimeUnit.MILLISECONDS.sleep(Math.max(periodMillis, ttlMillis * 10));
                while (!Thread.currentThread().isInterrupted()) {
                    sweep();
                    TimeUnit.MILLISECONDS.sleep(periodMillis);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "cache-sweeper");
        t.setDaemon(true);
        t.start();
        return t;
    }
}
