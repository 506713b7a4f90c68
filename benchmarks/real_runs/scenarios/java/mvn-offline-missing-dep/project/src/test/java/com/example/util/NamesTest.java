package com.example.util;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class NamesTest {
    @Test
    void capitalizes() {
        assertEquals("Ada Lovelace", Names.display("  ada LOVELACE "));
    }
}
