package com.example.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import org.junit.jupiter.api.Test;

class ReportCliTest {
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    @Test
    void printsUsageWithoutArguments() {
        int code = ReportCli.run(new String[0], new PrintStream(out), new PrintStream(err));
        assertEquals(2, code);
        assertTrue(err.toString().startsWith("usage:"));
    }

    @Test
    void rejectsUnknownFormat() {
        int code = ReportCli.run(new String[] {"in.csv", "--format=xml"}, new PrintStream(out), new PrintStream(err));
        assertEquals(2, code);
    }

    @Test
    void mainRendersJson() {
        // exercises the real entry point end to end
        ReportCli.main(new String[] {"in.csv", "--format=json"});
    }
}
