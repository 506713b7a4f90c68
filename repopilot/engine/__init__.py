"""The deterministic engine: the pattern library, scanning, arbitration, evaluation."""
