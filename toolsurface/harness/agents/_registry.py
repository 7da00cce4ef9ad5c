"""The clients: every class registered in the entry-point group `toolsurface.agents` whose card
(harness.agents._card) says what it is. toolsurface registers its own clients there as any outside package
registers one (`[project.entry-points."toolsurface.agents"]`, `NAME = "package.module:AdapterClass"`), so every
list of clients (help texts, `agents`, `clients` and `compat` columns, prefixes, the tests' pins) is read from here.

An entry point that cannot be loaded, a class that is not a client, two clients of one name and a card that does
not hold are each one line naming the package that declared it."""

from __future__ import annotations

import functools
import inspect
import sys
from dataclasses import dataclass
from importlib.metadata import EntryPoint, entry_points
from typing import Any, cast

from toolsurface.harness.agents._card import ClientCard
from toolsurface.harness.agents.base import Agent
from toolsurface.harness.errors import ToolsurfaceError

__all__ = [
    "ENTRY_POINT_GROUP",
    "ClientLoadError",
    "RegisteredClient",
    "builtin_tools",
    "cli_clients",
    "client_card",
    "client_cards",
    "client_names",
    "client_origin",
    "make_agent",
    "registered_clients",
    "search_clients",
    "takes_option",
]

ENTRY_POINT_GROUP = "toolsurface.agents"


class ClientLoadError(ToolsurfaceError):
    """A registered client cannot be used: its entry point, its class or its card is wrong."""


@dataclass(frozen=True)
class RegisteredClient:
    """A client as registered: its card, its adapter class and where it was declared (`origin`: the
    distribution, its version and the entry point's value)."""

    card: ClientCard
    adapter: type[Any]
    origin: str


def _origin(ep: EntryPoint) -> str:
    dist = ep.dist
    where = f"{dist.name} {dist.version}" if dist is not None else "an unknown package"
    return f"{where} ({ep.value})"


def _load(ep: EntryPoint) -> RegisteredClient:
    origin = _origin(ep)
    said = f"client {ep.name!r} of {origin}"
    try:
        loaded = ep.load()
    except Exception as error:  # a package of the user's: whatever its import raised is the line
        raise ClientLoadError(f"{said}: cannot be loaded: {type(error).__name__}: {error}") from None
    card = getattr(loaded, "card", None) if inspect.isclass(loaded) else None
    if not isinstance(card, ClientCard) or not callable(getattr(loaded, "run", None)):
        what = f"the class {loaded.__name__}" if inspect.isclass(loaded) else f"a {type(loaded).__name__}"
        raise ClientLoadError(f"{said}: names {what}, not a client (a class with a ClientCard as `card` and `run`)")
    if card.name != ep.name:
        raise ClientLoadError(f"{said}: its card names it {card.name!r}; the entry point and the card must agree")
    problems = card.problems()
    if problems:
        raise ClientLoadError(f"{said}: {'; '.join(problems)}")
    return RegisteredClient(card, loaded, origin)


def registered_clients() -> tuple[RegisteredClient, ...]:
    """Every registered client, in the order their cards give (toolsurface's own first)."""
    return _registered_on(tuple(sys.path))


@functools.lru_cache(maxsize=4)
def _registered_on(path: tuple[str, ...]) -> tuple[RegisteredClient, ...]:
    """Read once per import path: reading walks every installed distribution and imports every client."""
    found = list(entry_points(group=ENTRY_POINT_GROUP))
    seen: dict[str, str] = {}
    for ep in found:
        if ep.name in seen:
            first, second = sorted((seen[ep.name], _origin(ep)))
            raise ClientLoadError(f"two clients named {ep.name!r}: {first} and {second}")
        seen[ep.name] = _origin(ep)
    clients = [_load(ep) for ep in found]
    return tuple(sorted(clients, key=lambda c: (c.card.order, c.card.name)))


def client_cards() -> tuple[ClientCard, ...]:
    return tuple(c.card for c in registered_clients())


def builtin_tools() -> dict[str, tuple[str, ...]]:
    """Each client's own tools by name, as its card records them, keyed by the client and the versions seen."""
    return {f"{c.title} {c.builtins_seen}": c.builtin_tools for c in client_cards() if c.builtin_tools}


def client_names() -> tuple[str, ...]:
    return tuple(c.card.name for c in registered_clients())


def cli_clients() -> tuple[str, ...]:
    """The clients that are CLIs of their own (found on PATH), in the registry's order."""
    return tuple(c.card.name for c in registered_clients() if c.card.is_cli)


def search_clients() -> tuple[str, ...]:
    """The clients whose own tool search toolsurface observes offline (their cards read it), in the registry's
    order."""
    return tuple(c.card.name for c in registered_clients() if c.card.search_reading is not None)


def _registered(name: str) -> RegisteredClient:
    clients = registered_clients()
    found = next((c for c in clients if c.card.name == name), None)
    if found is None:
        raise ToolsurfaceError(f"unknown agent {name!r}; agents: {', '.join(c.card.name for c in clients)}")
    return found


def client_card(name: str) -> ClientCard:
    """The card of the client called `name`; a user error naming the clients there are when none is."""
    return _registered(name).card


def client_origin(name: str) -> str:
    return _registered(name).origin


def make_agent(name: str, **options: Any) -> Agent:
    """The adapter of the client called `name`, given the options its constructor takes (model, base_url, ...)."""
    adapter = _registered(name).adapter
    accepted = inspect.signature(adapter).parameters
    return cast(Agent, adapter(**{k: v for k, v in options.items() if k in accepted and v is not None}))


def takes_option(name: str, option: str) -> bool:
    """Whether the adapter of the client `name` takes `option` (`base_url`, say) in its constructor."""
    return option in inspect.signature(_registered(name).adapter).parameters
