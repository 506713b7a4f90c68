""" "Is it my PR?": the failure signature and the pure origin decision, before any LLM."""
