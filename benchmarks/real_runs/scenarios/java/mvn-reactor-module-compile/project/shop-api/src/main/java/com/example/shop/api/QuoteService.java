package com.example.shop.api;

import com.example.shop.model.OrderLine;
import com.example.shop.pricing.PriceCalculator;
import java.util.List;

public final class QuoteService {
    private final PriceCalculator calc = PriceCalculator.defaultInstance();

    public String quote(List<OrderLine> lines) {
        return "total=" + calc.totalCents(lines);
    }
}
