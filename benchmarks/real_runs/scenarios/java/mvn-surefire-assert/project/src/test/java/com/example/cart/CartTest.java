package com.example.cart;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.math.BigDecimal;
import org.junit.jupiter.api.Test;

class CartTest {
    @Test
    void subtotalSumsLines() {
        Cart cart = new Cart();
        cart.add("A-1", 2, "4.50");
        cart.add("B-7", 1, "10.00");
        assertEquals(new BigDecimal("19.00"), cart.subtotal());
    }

    @Test
    void discountIsRoundedHalfUp() {
        Cart cart = new Cart();
        cart.add("A-1", 3, "3.33");
        cart.applyDiscount(15);
        assertEquals(new BigDecimal("8.49"), cart.total(), "15% off 9.99");
    }

    @Test
    void itemCountCountsUnits() {
        Cart cart = new Cart();
        cart.add("A-1", 2, "1.00");
        cart.add("C-3", 5, "2.00");
        assertEquals(7, cart.itemCount(), "item count");
    }

    @Test
    void rejectsZeroQuantity() {
        Cart cart = new Cart();
        assertThrows(IllegalArgumentException.class, () -> cart.add("A-1", 0, "1.00"));
    }
}
