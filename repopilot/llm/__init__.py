"""Provider-agnostic LLM interface (base.py); the network adapters share adapter.py and import
their SDK lazily; the core imports only base."""
