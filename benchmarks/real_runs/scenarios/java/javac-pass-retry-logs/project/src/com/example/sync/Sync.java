package com.example.sync;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.ServerSocket;

/** Integration check: connect to a local fixture server, retrying while it starts. */
public class Sync {
    static void connectWithRetry(int port, int attempts) throws Exception {
        for (int i = 1; i <= attempts; i++) {
            try (Socket s = new Socket()) {
                s.connect(new InetSocketAddress("127.0.0.1", port), 500);
                System.out.println("connected to fixture on attempt " + i);
                return;
            } catch (IOException e) {
                System.err.println("ERROR attempt " + i + "/" + attempts + " failed: " + e);
                Thread.sleep(300);
            }
        }
        throw new IllegalStateException("fixture never came up");
    }

    public static void main(String[] args) throws Exception {
        int port;
        try (ServerSocket probe = new ServerSocket(0)) {
            port = probe.getLocalPort();
        }
        Thread fixture = new Thread(() -> {
            try {
                Thread.sleep(700);
                try (ServerSocket server = new ServerSocket(port)) {
                    server.accept().close();
                }
            } catch (Exception e) {
                throw new RuntimeException(e);
            }
        });
        fixture.start();
        connectWithRetry(port, 5);
        fixture.join();

        try {
            Integer.parseInt("not-a-number");
            assert false : "parseInt should have thrown";
        } catch (NumberFormatException expected) {
            System.out.println("expected failure handled: " + expected.getMessage());
        }
        System.out.println("2 checks, 0 failures, 0 errors");
    }
}
