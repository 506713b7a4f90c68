package com.example.hello;

public final class Cli {
    public static void main(String[] args) {
        String who = args.length > 0 ? args[0] : "world";
        System.out.println("hello, " + who);
    }
}
