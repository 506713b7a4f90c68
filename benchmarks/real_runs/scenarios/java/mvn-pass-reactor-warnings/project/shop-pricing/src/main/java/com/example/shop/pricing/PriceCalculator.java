package com.example.shop.pricing;

import com.example.shop.model.Category;
import com.example.shop.model.OrderLine;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.List;
import java.util.logging.Logger;

/** Totals an order, with a per-category VAT rate. */
public final class PriceCalculator {
    private static final Logger LOG = Logger.getLogger(PriceCalculator.class.getName());

    public BigDecimal total(List<OrderLine> lines) {
        BigDecimal total = BigDecimal.ZERO;
        for (OrderLine line : lines) {
            if (line.quantity() <= 0) {
                LOG.severe("ERROR skipping order line " + line.product().sku() + ": quantity " + line.quantity());
                continue;
            }
            BigDecimal net = line.product().unitPrice().multiply(BigDecimal.valueOf(line.quantity()));
            total = total.add(net).add(vatOf(net, line.product().category()));
        }
        return total.setScale(2, RoundingMode.HALF_UP);
    }

    public BigDecimal vatOf(BigDecimal net, Category category) {
        BigDecimal rate = BigDecimal.valueOf(vatPercent(category), 2);
        return net.multiply(rate).setScale(2, RoundingMode.HALF_UP);
    }

    private static int vatPercent(Category c) {
        return switch (c) {
            case BOOKS -> 7;
            case FOOD -> 7;
            case GAMES -> 19;
        };
    }

    /** @deprecated inject a calculator instead */
    @Deprecated
    public static PriceCalculator defaultInstance() {
        return new PriceCalculator();
    }
}
