package com.example.metrics;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Holds named counters and gauges. */
public class Registry {
    private final Map<String, Counter> counters = new HashMap<>();
    private final List gauges = new ArrayList();

    public Counter counter(String name) {
        return counters.computeIfAbsent(name, Counter::new);
    }

    @SuppressWarnings("unchecked")
    public void gauge(String name, double value) {
        gauges.add(new Gauge(name, value));
    }

    public int size() {
        return counters.size() + gauges.size();
    }
}
