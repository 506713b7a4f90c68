package com.example.report;

public record Row(String region, String amount) {
    public static Row parse(String csvLine) {
        String[] parts = csvLine.split(",", -1);
        return new Row(parts[0].trim(), parts[1].trim());
    }
}
