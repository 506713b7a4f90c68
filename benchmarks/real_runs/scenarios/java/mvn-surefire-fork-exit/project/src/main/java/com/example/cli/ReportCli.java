package com.example.cli;

import java.io.PrintStream;

/** Command-line entry point: report-cli <input.csv> [--format=text|json]. */
public final class ReportCli {
    private ReportCli() {}

    public static void main(String[] args) {
        int code = run(args, System.out, System.err);
        System.exit(code);
    }

    static int run(String[] args, PrintStream out, PrintStream err) {
        if (args.length == 0) {
            err.println("usage: report-cli <input.csv> [--format=text|json]");
            return 2;
        }
        String format = "text";
        for (String a : args) {
            if (a.startsWith("--format=")) {
                format = a.substring("--format=".length());
            }
        }
        if (!format.equals("text") && !format.equals("json")) {
            err.println("error: unknown format '" + format + "'");
            return 2;
        }
        out.println("report " + args[0] + " as " + format);
        return 0;
    }
}
