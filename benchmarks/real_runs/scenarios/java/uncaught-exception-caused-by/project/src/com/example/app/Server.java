package com.example.app;

import java.nio.file.Path;
import java.util.logging.Logger;

public class Server {
    private static final Logger LOG = Logger.getLogger(Server.class.getName());

    private final Config config;

    Server(Config config) {
        this.config = config;
    }

    void start() {
        LOG.info("starting " + config.name());
        int port = config.port();
        LOG.info("listening on " + port);
    }

    public static void main(String[] args) {
        Path file = Path.of(args.length > 0 ? args[0] : "config/application.properties");
        new Server(Config.load(file)).start();
        System.out.println("smoke: OK");
    }
}
