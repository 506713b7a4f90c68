package com.example.inventory;

import java.util.List;

public class Restock {
    private final Stock stock;

    public Restock(Stock stock) {
        this.stock = stock;
    }

    public int apply(List<String> skus, int batch) {
        int applied = 0;
        for (String sku : skus) {
            if (stock.count(sku) < batch) {
                stock.add(sku, batch);
                applied++;
            }
        }
        return applied;
    }

    public int shortfall(String sku, int wanted) {
        return Math.max(0, wanted - stock.available(sku));
    }

    public String report(String sku) {
        return sku + ": " + stock.available(sku) + " on hand, " + levelOf(sku);
    }
}
