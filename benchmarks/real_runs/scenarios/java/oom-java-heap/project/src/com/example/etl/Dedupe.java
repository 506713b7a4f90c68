package com.example.etl;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Groups synthetic events by key in memory, the way the nightly dedupe job does. */
public class Dedupe {
    record Event(long id, String key, String payload) {}

    public static void main(String[] args) {
        int count = Integer.parseInt(args[0]);
        Map<String, List<Event>> byKey = new HashMap<>();
        for (long i = 0; i < count; i++) {
            String key = "customer-" + (i % 50_000);
            byKey.computeIfAbsent(key, k -> new ArrayList<>())
                 .add(new Event(i, key, "payload-" + i + "-" + "x".repeat(64)));
            if (i % 100_000 == 0) {
                System.out.printf("processed %,d events, %d keys%n", i, byKey.size());
            }
        }
        System.out.println("unique keys: " + byKey.size());
    }
}
