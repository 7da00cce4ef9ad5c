"""A surface's stub factory from its handlers: a fresh project from the fixture at every start."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from toolsurface.harness.surface import StubFactory
from toolsurface.stubs.kit._handlers import Handlers, HandlerStub

P = TypeVar("P")


def stub_factory(
    handlers: Handlers[P], load: Callable[[Path | None], P], dump: Callable[[P], dict[str, Any]]
) -> StubFactory:
    """`load(None)` is the surface's own fixture; `dump` gives the state the outcome checks read."""

    def start(fixture: Path | None) -> HandlerStub[P]:
        return HandlerStub(load(fixture), handlers, dump)

    return start
