"""Make the configured LLM (docs/CONTRACTS.md Contract 2) from the settings the entry point read.

`REPOPILOT_LLM` = none | openai | ollama (default none: deterministic only), `REPOPILOT_MODEL`,
and the providers' OPENAI_API_KEY, OPENAI_BASE_URL, OLLAMA_HOST arrive as one `LLMSettings`
(repopilot/settings.py); nothing here reads the environment. Adapter modules are imported only
for the provider chosen, so `none` needs neither SDK.
"""

from __future__ import annotations

from typing import cast

from repopilot.llm.base import LLM
from repopilot.settings import PROVIDERS, LLMSettings, Provider

DEFAULT_MODELS = {"openai": "gpt-4o-mini", "ollama": "llama3.1"}


def resolve_provider(provider: str) -> Provider:
    """The provider name in canonical form; ValueError with one line when it is not known."""
    name = provider.strip().lower() or "none"
    if name not in PROVIDERS:
        raise ValueError(
            f"unknown LLM provider {name!r} (provider): expected one of {', '.join(PROVIDERS)}"
        )
    return cast(Provider, name)


def make_llm(cfg: LLMSettings) -> LLM | None:
    """The configured LLM, or None for `none`; the provider's default model when none is set.

    Raises ValueError for missing configuration (an OpenAI key), ImportError (with the pip
    command) when the provider's SDK is not installed.
    """
    name = resolve_provider(cfg.provider)
    if name == "none":
        return None
    chosen = cfg.model.strip() or DEFAULT_MODELS[name]
    if name == "openai":
        from repopilot.llm.openai import OpenAIChat

        return OpenAIChat(chosen, base_url=cfg.openai_base_url, api_key=cfg.openai_api_key)
    from repopilot.llm.ollama import OllamaChat

    return OllamaChat(chosen, host=cfg.ollama_host)
