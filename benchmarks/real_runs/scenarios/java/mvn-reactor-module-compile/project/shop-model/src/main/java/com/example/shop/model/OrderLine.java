package com.example.shop.model;

public record OrderLine(Product product, int quantity) {}
