package com.example.shop.pricing;

import java.math.BigDecimal;

public final class Discounts {
    private Discounts() {}

    public static BigDecimal apply(BigDecimal amount, int percent) {
        return amount.subtract(amount.multiply(BigDecimal.valueOf(percent, 2)));
    }
}
