"""Provider-agnostic LLM interface. Adapters import their SDK lazily; the core imports only base."""
