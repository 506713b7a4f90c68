package com.example.geo;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.Map;

public class Lookup {
    public static void main(String[] args) throws Exception {
        System.out.println(new ObjectMapper().writeValueAsString(Map.of("city", "Lisbon")));
    }
}
