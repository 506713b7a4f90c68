package com.example.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

public class Summary {
    private final List rows = new ArrayList();

    public void add(Row row) {
        rows.add(row);
    }

    public Map<String, Integer> totalsByRegion() {
        Map<String, Integer> totals = new TreeMap<>();
        for (Object o : rows) {
            Row row = (Row) o;
            int amount = row.amount();
            totals.merge(row.region(), amount, Integer::sum);
        }
        return totals;
    }

    public long grandTotal() {
        long sum = 0;
        for (int v : totalsByRegion().values()) {
            sum += v;
        }
        return sum;
    }
}
