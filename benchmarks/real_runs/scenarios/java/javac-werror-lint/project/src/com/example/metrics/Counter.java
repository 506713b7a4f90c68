package com.example.metrics;

public class Counter {
    private final String name;
    private long value;

    public Counter(String name) {
        this.name = name;
    }

    public void inc() {
        value++;
    }

    public long value() {
        return value;
    }

    public String name() {
        return name;
    }

    /** @deprecated use {@link #inc()} */
    @Deprecated
    public void increment() {
        inc();
    }
}
