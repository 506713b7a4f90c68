package com.example.shop.pricing;

import com.example.shop.model.Category;
import com.example.shop.model.OrderLine;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.List;

/** Totals an order, with a per-category VAT rate. */
public final class PriceCalculator {

    public long totalCents(List<OrderLine> lines) {
        long total = 0;
        for (OrderLine line : lines) {
            long unit = line.product().unitPrice();
            total += unit * line.quantity() * (100 + vatPercent(line.product().category())) / 100;
        }
        return total;
    }

    public BigDecimal vatOf(OrderLine line) {
        BigDecimal rate = BigDecimal.valueOf(vatPercent(line.product().category()), 2);
        return line.product().unitPrice().multiply(rate).setScale(2, RoundingMode.HALF_UP);
    }

    private static int vatPercent(Category c) {
        return switch (c) {
            case BOOKS -> 7;
            case FOOD -> 7;
            case GAMES -> 19;
        };
    }

    @Deprecated
    public static PriceCalculator defaultInstance() {
        return new PriceCalculator();
    }
}
