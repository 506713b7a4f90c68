package com.example.notify;

public class Notifier {
    public static void main(String[] args) {
        String body = Payload.toJson(args.length > 0 ? args[0] : "#builds", "build finished");
        System.out.println(body);
    }
}
