package com.example.inventory;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class StockTest {
    @Test
    void receiveAddsUp() {
        Stock s = new Stock();
        s.receive("A", 2);
        s.receive("A", 3);
        assertEquals(5, s.available("A"));
    }
}
