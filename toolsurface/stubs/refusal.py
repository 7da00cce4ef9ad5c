"""The refusal: a call a surface's rules reject, answered as isError with what is allowed instead."""

from __future__ import annotations

from collections.abc import Iterable

__all__ = ["Refusal"]


class Refusal(Exception):
    """A call the product's rules reject. The message always names what is allowed."""

    def __init__(self, message: str, allowed: Iterable[object]) -> None:
        self.allowed = [str(a) for a in allowed]
        if not self.allowed:
            raise ValueError("a refusal must name what is allowed")
        missing = [a for a in self.allowed if a not in message]
        if missing:
            message = f"{message} (allowed: {', '.join(self.allowed)})"
        super().__init__(message)
        self.message = message
