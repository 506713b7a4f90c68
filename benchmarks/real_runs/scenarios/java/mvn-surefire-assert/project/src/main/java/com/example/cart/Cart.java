package com.example.cart;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.List;

public class Cart {
    public record Line(String sku, int quantity, BigDecimal unitPrice) {}

    private final List<Line> lines = new ArrayList<>();
    private BigDecimal discountRate = BigDecimal.ZERO;

    public void add(String sku, int quantity, String unitPrice) {
        if (quantity <= 0) {
            throw new IllegalArgumentException("quantity must be positive: " + quantity);
        }
        lines.add(new Line(sku, quantity, new BigDecimal(unitPrice)));
    }

    public void applyDiscount(int percent) {
        discountRate = BigDecimal.valueOf(percent).movePointLeft(2);
    }

    public BigDecimal subtotal() {
        BigDecimal sum = BigDecimal.ZERO;
        for (Line l : lines) {
            sum = sum.add(l.unitPrice().multiply(BigDecimal.valueOf(l.quantity())));
        }
        return sum;
    }

    public BigDecimal total() {
        BigDecimal discount = subtotal().multiply(discountRate).setScale(2, RoundingMode.DOWN);
        return subtotal().subtract(discount).setScale(2, RoundingMode.HALF_UP);
    }

    public int itemCount() {
        return lines.size();
    }
}
