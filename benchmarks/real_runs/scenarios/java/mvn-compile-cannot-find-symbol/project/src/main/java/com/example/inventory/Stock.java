package com.example.inventory;

import java.util.HashMap;
import java.util.Map;

public class Stock {
    private final Map<String, Integer> onHand = new HashMap<>();

    /** Renamed from {@code add} in 1.4; callers must move to {@code receive}. */
    public void receive(String sku, int quantity) {
        onHand.merge(sku, quantity, Integer::sum);
    }

    public int available(String sku) {
        return onHand.getOrDefault(sku, 0);
    }

    @Deprecated
    public int count(String sku) {
        return available(sku);
    }
}
