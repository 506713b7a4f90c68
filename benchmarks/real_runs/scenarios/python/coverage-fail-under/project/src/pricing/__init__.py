"""Price calculations for the checkout."""
