package com.example.users;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class DirectoryTest {
    private Directory dir;

    @BeforeEach
    void setUp() {
        dir = new Directory();
        dir.add(new User("u1", "Ada Lovelace", "ada@example.org"));
        dir.add(new User("u2", "Grace Hopper", "grace@navy.example"));
        // imported from the legacy LDAP export: no email on file
        dir.add(new User("u3", "Service Account", null));
    }

    @Test
    void findsById() {
        assertEquals("Ada Lovelace", dir.find("u1").displayName());
    }

    @Test
    void searchIsCaseInsensitive() {
        assertEquals(1, dir.search("HOPPER").size());
    }

    @Test
    void searchMatchesEmail() {
        assertTrue(dir.search("navy").stream().anyMatch(u -> u.id().equals("u2")));
    }

    @Test
    void domainOfUser() {
        assertEquals("example.org", dir.domainOf("u1"));
    }
}
