package com.example.text;

import java.text.Normalizer;
import java.util.Locale;

public final class Slug {
    private Slug() {}

    public static String of(String title) {
        String n = Normalizer.normalize(title, Normalizer.Form.NFD).replaceAll("\\p{M}", "");
        return n.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "-");
    }

    public static String truncate(String slug, int max) {
        return slug.length() <= max ? slug : slug.substring(0, max);
    }
}
