package com.example.money;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class AmountsTest {

    @ParameterizedTest(name = "[{index}] {0} cents -> {1}")
    @CsvSource({
        "0, 0.00",
        "5, 0.05",
        "123456, '1,234.56'",
        "100000000, '1,000,000.00'",
        "-2550, -25.50",
    })
    void formatsCents(long cents, String expected) {
        assertEquals(expected, Amounts.format(cents), () -> "format(" + cents + ")");
    }

    @ParameterizedTest
    @CsvSource({"'1,234.56', 123456", "0.05, 5", "-25.50, -2550"})
    void parsesDisplayStrings(String text, long cents) {
        assertEquals(cents, Amounts.parse(text));
    }

    @Test
    void roundTripsLargeAmount() {
        assertEquals(987654321L, Amounts.parse(Amounts.format(987654321L)));
    }
}
