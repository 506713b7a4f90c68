package com.example.hello;

public record Greeting(String text) {
    public Greeting {
        if (text.isBlank()) {
            throw new IllegalArgumentException("empty greeting");
        }
    }
}
