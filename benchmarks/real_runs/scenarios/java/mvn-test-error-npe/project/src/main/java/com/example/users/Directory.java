package com.example.users;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** An in-memory user directory with case-insensitive search. */
public final class Directory {
    private final Map<String, User> byId = new LinkedHashMap<>();

    public void add(User user) {
        byId.put(user.id(), user);
    }

    public User find(String id) {
        return byId.get(id);
    }

    public List<User> search(String query) {
        String q = query.toLowerCase(Locale.ROOT);
        List<User> hits = new ArrayList<>();
        for (User u : byId.values()) {
            if (u.displayName().toLowerCase(Locale.ROOT).contains(q)
                    || u.email().toLowerCase(Locale.ROOT).contains(q)) {
                hits.add(u);
            }
        }
        return hits;
    }

    /** The domain part of a user's email, e.g. "example.org". */
    public String domainOf(String id) {
        User u = find(id);
        return u.email().substring(u.email().indexOf('@') + 1);
    }
}
