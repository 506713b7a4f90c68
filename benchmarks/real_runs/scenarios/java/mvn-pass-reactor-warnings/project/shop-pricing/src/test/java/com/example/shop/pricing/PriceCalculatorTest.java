package com.example.shop.pricing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.example.shop.model.Category;
import com.example.shop.model.OrderLine;
import com.example.shop.model.Product;
import java.math.BigDecimal;
import java.util.List;
import org.junit.jupiter.api.Disabled;
import org.junit.jupiter.api.Test;

class PriceCalculatorTest {
    private final PriceCalculator calc = new PriceCalculator();
    private final Product dune = new Product("B-1", "Dune", new BigDecimal("10.00"), Category.BOOKS);
    private final Product chess = new Product("G-7", "Chess", new BigDecimal("20.00"), Category.GAMES);

    @Test
    void addsVatPerCategory() {
        assertEquals(new BigDecimal("34.50"), calc.total(List.of(new OrderLine(dune, 1), new OrderLine(chess, 1))));
    }

    @Test
    void skipsAndLogsNonPositiveQuantities() {
        assertEquals(new BigDecimal("10.70"), calc.total(List.of(new OrderLine(dune, 1), new OrderLine(chess, 0))));
    }

    @Test
    void nullLineIsRejected() {
        NullPointerException e = assertThrows(NullPointerException.class, () -> calc.total(java.util.Arrays.asList((OrderLine) null)));
        System.out.println("expected failure: " + e);
    }

    @Test
    @Disabled("error rounding for FOOD rate change: re-enable after the 2027 VAT table lands")
    void foodRate2027() {
        assertEquals(new BigDecimal("5.00"), calc.vatOf(new BigDecimal("100"), Category.FOOD));
    }
}
