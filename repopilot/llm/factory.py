"""Choose the LLM provider from arguments or the environment (DESIGN.md Contract 2).

`REPOPILOT_LLM` = none | openai | ollama (default none: deterministic only), `REPOPILOT_MODEL`.
The SDKs read their own variables (OPENAI_API_KEY, OPENAI_BASE_URL, OLLAMA_HOST). Adapter modules
are imported only for the provider chosen, so `none` needs neither SDK.
"""

from __future__ import annotations

import os
from collections.abc import Mapping

from repopilot.llm.base import LLM

PROVIDERS = ("none", "openai", "ollama")
DEFAULT_MODELS = {"openai": "gpt-4o-mini", "ollama": "llama3.1"}


def resolve_provider(provider: str | None, env: Mapping[str, str] | None = None) -> str:
    """The provider name in canonical form; ValueError with one line when it is not known."""
    env = os.environ if env is None else env
    source = "provider" if provider else "REPOPILOT_LLM"
    name = (provider or env.get("REPOPILOT_LLM") or "none").strip().lower()
    if name not in PROVIDERS:
        raise ValueError(
            f"unknown LLM provider {name!r} ({source}): expected one of {', '.join(PROVIDERS)}"
        )
    return name


def make_llm(
    provider: str | None = None,
    model: str | None = None,
    env: Mapping[str, str] | None = None,
) -> LLM | None:
    """The configured LLM, or None for `none`. Arguments win over REPOPILOT_LLM/REPOPILOT_MODEL.

    Raises ValueError for an unknown provider or missing configuration, ImportError (with the
    pip command) when the provider's SDK is not installed.
    """
    env = os.environ if env is None else env
    name = resolve_provider(provider, env)
    if name == "none":
        return None
    chosen = (model or env.get("REPOPILOT_MODEL") or "").strip() or DEFAULT_MODELS[name]
    if name == "openai":
        from repopilot.llm.openai import OpenAIChat

        return OpenAIChat(
            chosen, base_url=env.get("OPENAI_BASE_URL"), api_key=env.get("OPENAI_API_KEY")
        )
    from repopilot.llm.ollama import OllamaChat

    return OllamaChat(chosen, host=env.get("OLLAMA_HOST"))
