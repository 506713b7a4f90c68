package com.example.pay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class GatewayTest {
    private final Gateway gateway = new Gateway(3);

    @Test
    void chargesAValidCard() throws Exception {
        assertEquals("txn-visa-1299", gateway.charge("visa", 1299));
    }

    @Test
    void retriesATransientError() throws Exception {
        assertEquals("txn-flaky-500", gateway.charge("flaky", 500));
    }

    @Test
    void declinesAStolenCard() {
        Gateway.PaymentDeclinedException e =
            assertThrows(Gateway.PaymentDeclinedException.class, () -> gateway.charge("stolen", 100));
        assertEquals("card reported stolen", e.getMessage());
    }

    @Test
    void rejectsANegativeAmount() {
        assertThrows(IllegalArgumentException.class, () -> gateway.charge("visa", -5));
    }

    @Test
    void giveUpAfterRetries() {
        Gateway once = new Gateway(1);
        assertThrows(Gateway.PaymentDeclinedException.class, () -> once.charge("flaky", 100));
    }
}
