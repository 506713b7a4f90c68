package com.example.util;

import org.apache.commons.text.WordUtils;

public final class Names {
    private Names() {}

    public static String display(String raw) {
        return WordUtils.capitalizeFully(raw.trim());
    }
}
