"""Token counters per model family: o200k (the default), harmony (gpt-oss's rendering, offline), and the
Anthropic, OpenAI and Gemini counting endpoints with the user's key, their answers cached on disk."""

from toolsurface.harness.counters._cache import CountCache, cache_root
from toolsurface.harness.counters._make import make_counters
from toolsurface.harness.counters._spec import (
    DEFAULT_MODELS,
    FAMILIES,
    KEYED_FAMILIES,
    CounterSpec,
    CountingError,
    parse_count_urls,
    parse_counters,
)

__all__ = [
    "DEFAULT_MODELS",
    "FAMILIES",
    "KEYED_FAMILIES",
    "CountCache",
    "CounterSpec",
    "CountingError",
    "cache_root",
    "make_counters",
    "parse_count_urls",
    "parse_counters",
]
