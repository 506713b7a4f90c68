package com.example.shop.app;

import com.example.shop.api.QuoteService;
import java.util.List;

public final class Main {
    public static void main(String[] args) {
        System.out.println(new QuoteService().quote(List.of()));
    }
}
