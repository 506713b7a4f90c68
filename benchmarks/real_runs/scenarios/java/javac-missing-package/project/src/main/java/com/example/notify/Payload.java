package com.example.notify;

import com.google.gson.Gson;
import com.google.gson.GsonBuilder;
import java.util.Map;

public final class Payload {
    private static final Gson GSON = new GsonBuilder().disableHtmlEscaping().create();

    private Payload() {}

    public static String toJson(String channel, String text) {
        return GSON.toJson(Map.of("channel", channel, "text", text));
    }
}
