"""Read every input format into jobs -> steps -> lines, and normalise the text."""
