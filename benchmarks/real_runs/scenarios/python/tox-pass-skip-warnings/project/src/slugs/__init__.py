"""Make URL slugs."""
