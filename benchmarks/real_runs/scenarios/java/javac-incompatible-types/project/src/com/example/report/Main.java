package com.example.report;

import java.nio.file.Files;
import java.nio.file.Path;

public class Main {
    public static void main(String[] args) throws Exception {
        Summary s = new Summary();
        for (String line : Files.readAllLines(Path.of(args[0]))) {
            s.add(Row.parse(line));
        }
        s.totalsByRegion().forEach((k, v) -> System.out.println(k + "\t" + v));
        Integer total = new Integer((int) s.grandTotal());
        System.out.println("TOTAL\t" + total);
    }
}
