package com.example.app;

import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;

public final class Config {
    private final Properties props;

    private Config(Properties props) {
        this.props = props;
    }

    public static Config load(Path file) {
        Properties p = new Properties();
        try (Reader r = Files.newBufferedReader(file)) {
            p.load(r);
        } catch (IOException e) {
            throw new IllegalStateException("cannot read " + file, e);
        }
        return new Config(p);
    }

    public int port() {
        String raw = props.getProperty("server.port", "8080");
        try {
            return Integer.parseInt(raw);
        } catch (NumberFormatException e) {
            throw new ConfigException("invalid server.port in application.properties", e);
        }
    }

    public String name() {
        return props.getProperty("app.name", "app");
    }

    public static final class ConfigException extends RuntimeException {
        public ConfigException(String message, Throwable cause) {
            super(message, cause);
        }
    }
}
