package com.example.pay;

import java.util.logging.Level;
import java.util.logging.Logger;

public class Gateway {
    private static final Logger LOG = Logger.getLogger(Gateway.class.getName());

    public static class PaymentDeclinedException extends Exception {
        public PaymentDeclinedException(String message) {
            super(message);
        }
    }

    private final int maxAttempts;

    public Gateway(int maxAttempts) {
        this.maxAttempts = maxAttempts;
    }

    /** Charges a card; 'flaky' cards fail once before succeeding, 'stolen' cards always fail. */
    public String charge(String card, long cents) throws PaymentDeclinedException {
        if (cents <= 0) {
            throw new IllegalArgumentException("amount must be positive: " + cents);
        }
        for (int attempt = 1; attempt <= maxAttempts; attempt++) {
            if (card.equals("stolen")) {
                LOG.severe("ERROR charge declined for card=" + card + ": card reported stolen");
                throw new PaymentDeclinedException("card reported stolen");
            }
            if (card.equals("flaky") && attempt == 1) {
                LOG.log(Level.WARNING, "error talking to acquirer (attempt {0}), retrying", attempt);
                continue;
            }
            return "txn-" + card + "-" + cents;
        }
        throw new PaymentDeclinedException("gave up after " + maxAttempts + " attempts");
    }
}
