package com.example.shop.model;

import java.math.BigDecimal;

/** A catalogue product. The price is now a BigDecimal (was a long of cents). */
public record Product(String sku, String title, BigDecimal unitPrice, Category category) {}
