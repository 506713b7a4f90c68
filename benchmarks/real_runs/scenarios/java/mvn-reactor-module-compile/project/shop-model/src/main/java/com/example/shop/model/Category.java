package com.example.shop.model;

public enum Category { BOOKS, GAMES, FOOD }
