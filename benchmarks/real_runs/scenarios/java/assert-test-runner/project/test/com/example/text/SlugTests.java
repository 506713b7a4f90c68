package com.example.text;

import java.lang.reflect.Method;
import java.lang.reflect.InvocationTargetException;

/** A tiny test runner: every static void test* method is a test; run with java -ea. */
public class SlugTests {
    static void testLowercases() {
        assert Slug.of("Hello").equals("hello");
    }

    static void testStripsAccents() {
        String got = Slug.of("Crème Brûlée");
        assert got.equals("creme-brulee") : "accents: got '" + got + "'";
    }

    static void testTrimsDashes() {
        String got = Slug.of("  Release notes: v2.0!  ");
        assert got.equals("release-notes-v2-0") : "expected 'release-notes-v2-0' but got '" + got + "'";
    }

    static void testTruncate() {
        assert Slug.truncate("abcdef", 3).equals("abc");
    }

    static void testEmptyTitle() {
        String got = Slug.of("!!!");
        assert got.isEmpty() : "expected empty slug but got '" + got + "'";
    }

    public static void main(String[] args) throws Exception {
        boolean enabled = false;
        assert enabled = true;
        if (!enabled) {
            System.err.println("assertions are disabled: run with java -ea");
            System.exit(2);
        }
        int passed = 0, failed = 0;
        for (Method m : SlugTests.class.getDeclaredMethods()) {
            if (!m.getName().startsWith("test")) continue;
            try {
                m.invoke(null);
                System.out.println("PASS " + m.getName());
                passed++;
            } catch (InvocationTargetException e) {
                System.out.println("FAIL " + m.getName() + ": " + e.getCause());
                failed++;
            }
        }
        System.out.printf("%d passed, %d failed%n", passed, failed);
        System.exit(failed == 0 ? 0 : 1);
    }
}
