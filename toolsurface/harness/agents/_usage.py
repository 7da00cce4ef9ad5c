"""A model's token usage, as an agent's transcript or a client's session file reports it."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Usage", "cached_within"]


@dataclass(frozen=True)
class Usage:
    input_tokens: int = 0
    output_tokens: int = 0
    cache_read_tokens: int = 0
    cache_write_tokens: int = 0

    def __add__(self, other: Usage) -> Usage:
        return Usage(
            self.input_tokens + other.input_tokens,
            self.output_tokens + other.output_tokens,
            self.cache_read_tokens + other.cache_read_tokens,
            self.cache_write_tokens + other.cache_write_tokens,
        )


def cached_within(prompt: int, output: int, thoughts: int, cached: int) -> Usage:
    """Usage as the Gemini API family counts it: the prompt's tokens include the cached ones, the thoughts are
    output apart."""
    return Usage(input_tokens=max(prompt - cached, 0), output_tokens=output + thoughts, cache_read_tokens=cached)
