package com.example.metrics;

public record Gauge(String name, double value) {}
