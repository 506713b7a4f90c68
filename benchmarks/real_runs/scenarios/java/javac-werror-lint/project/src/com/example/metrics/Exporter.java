package com.example.metrics;

import java.util.Date;

/** Writes the registry in a line protocol. */
public final class Exporter {
    private final Registry registry;

    public Exporter(Registry registry) {
        this.registry = registry;
    }

    public String export(Counter c) {
        c.increment();
        Date now = new Date();
        int year = now.getYear() + 1900;
        switch (registry.size()) {
            case 0:
                return "";
            case 1:
                year += 0;
            default:
                return c.name() + " " + c.value() + " " + year;
        }
    }
}
