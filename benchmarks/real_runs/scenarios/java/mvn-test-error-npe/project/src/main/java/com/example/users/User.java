package com.example.users;

public record User(String id, String displayName, String email) {}
