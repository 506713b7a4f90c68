package com.example.shop.model;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.math.BigDecimal;
import org.junit.jupiter.api.Test;

class ProductTest {
    @Test
    void recordEquality() {
        Product a = new Product("B-1", "Dune", new BigDecimal("9.99"), Category.BOOKS);
        Product b = new Product("B-1", "Dune", new BigDecimal("9.99"), Category.BOOKS);
        assertEquals(a, b);
    }
}
