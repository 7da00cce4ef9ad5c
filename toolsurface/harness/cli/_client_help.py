"""The help texts that name clients, made from the registered clients' cards when help is shown (not when the CLI
is imported, so `toolsurface --help` reads no card)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import click

if TYPE_CHECKING:
    from toolsurface.harness.agents import ClientCard

__all__ = [
    "CardChoice",
    "CardHelpOption",
    "agent_help",
    "base_url_help",
    "client_help",
    "keep_help",
    "max_results_help",
    "mode_help",
    "roundtrip_client_help",
    "scorer_help",
    "search_cards",
    "search_client_help",
    "setting_help",
    "stub_start_help",
]


class CardHelpOption(click.Option):
    """An option whose help text is made when it is shown, by `card_help()`."""

    def __init__(self, *args: Any, card_help: Callable[[], str], **kwargs: Any) -> None:
        self._card_help = card_help
        super().__init__(*args, **kwargs)

    @property
    def help(self) -> str | None:
        return self._card_help()

    @help.setter
    def help(self, value: str | None) -> None:
        """Made from the cards, never given."""


class CardChoice(click.Choice[str]):
    """A choice of values made from the registered clients' cards when first read (not when the CLI is imported)."""

    def __init__(self, made: Callable[[], Sequence[str]]) -> None:
        self._made = made
        self._choices: tuple[str, ...] | None = None
        super().__init__(())

    @property
    def choices(self) -> tuple[str, ...]:
        if self._choices is None:
            self._choices = tuple(self._made())
        return self._choices

    @choices.setter
    def choices(self, value: Sequence[str]) -> None:
        """Made from the cards, never given."""


def _either(items: Sequence[str], last: str = "or") -> str:
    return f"{', '.join(items[:-1])} {last} {items[-1]}" if len(items) > 1 else "".join(items)


def _cards(clis: bool = False) -> list[ClientCard]:
    from toolsurface.harness.agents import client_cards

    return [card for card in client_cards() if card.is_cli or not clis]


def _examples(cards: Sequence[ClientCard]) -> str:
    """NAME:MODE for the first two clients with a second mode."""
    return ", ".join([f"{c.name}:{c.modes[1]}" for c in cards if len(c.modes) > 1][:2])


def _modes(card: ClientCard) -> str:
    """`on-demand (the default) or full-list`, an alias as `full-list runs default`."""
    first = card.modes[0] + ("" if len(card.modes) == 1 or card.modes[0] == "default" else " (the default)")
    aliases = [f"{alias} runs {mode}" for alias, mode in card.aliases.items()]
    return _either([first, *card.modes[1:]]) + (f" ({', '.join(aliases)})" if aliases else "")


def agent_help() -> str:
    cards = _cards()
    return (
        f"{_either([c.name for c in cards])}, optionally NAME:MODE ({_examples(cards)}); repeat for more."
        " `toolsurface agents` lists the CLIs and their modes."
    )


def mode_help() -> str:
    alike: dict[str, list[str]] = {}
    for card in _cards():
        if len(card.modes) > 1 or card.aliases:
            alike.setdefault(_modes(card), []).append(card.name)
    described = "; ".join(f"{_either(names, 'and')}: {modes}" for modes, names in alike.items())
    return f"Mode of every --agent given without one; {described}. A mode an agent has not got is refused."


def stub_start_help() -> str:
    return (
        "fork: each run's stub forks from one warm server (about 0.6 s less CPU a run; Linux); spawn: a fresh process"
        " a run; auto: fork where forking is available, for toolsurface's own client and every agent CLI alike."
    )


def keep_help() -> str:
    return (
        "Keep what an agent CLI leaves behind, in your home or in its own folders of the run"
        " (`toolsurface agents --format json` says what each leaves)."
    )


def client_help() -> str:
    cards = _cards(clis=True)
    named = [
        f"{c.name}:" + "|".join(f"{m}[:N]" if m in c.percent_modes else m for m in c.named_modes)
        for c in cards
        if c.named_modes
    ]
    deciding = (
        f" Run only when named, the client deciding shown or deferred as a user's settings leave it: {_either(named)}"
        " (N: the share of the context window, --context-window)."
        if named
        else ""
    )
    return (
        f"Only this client ({', '.join(c.name for c in cards)}), in every mode or in MODE ({_examples(cards)}); repeat."
        f" Default: every one on PATH, a missing one as a row that says so.{deciding}"
    )


def base_url_help() -> str:
    from toolsurface.harness.agents import takes_option

    cards = [c for c in _cards() if takes_option(c.name, "base_url")]
    loops = [c.name for c in cards if not c.is_cli]
    clis = [c.name for c in cards if c.is_cli]
    said = f"{_either(loops)}: the chat-completions endpoint, e.g. http://localhost:11434/v1" if loops else ""
    return "; ".join(part for part in (said, f"{_either(clis)}: its API base URL" if clis else "") if part) + "."


def setting_help() -> str:
    from toolsurface.harness.compat import answer_settings

    settings = answer_settings()
    known = ", ".join(
        f"{s.name} ({name}, {'a config option' if s.given_as == 'config' else 'an environment variable'})"
        for name, s in settings.items()
    )
    return f"With --answers: also run the client whose setting NAME is with it: {known}; repeat."


def mcp_config_help() -> str:
    from toolsurface.harness.mcp_config import config_formats

    formats = ", ".join(fmt.title for fmt in config_formats())
    return f"Also every server of this client configuration ({formats}), each named by its key; never written to."


def search_cards() -> list[ClientCard]:
    """The clients whose own tool search toolsurface reads, in the registry's order."""
    from toolsurface.harness.agents import client_card, search_clients

    return [client_card(name) for name in search_clients()]


def _searched(card: ClientCard) -> str:
    """`Claude Code's own ToolSearch, one on-demand session per surface with a scripted model`."""
    return (
        f"{card.title}'s own {card.search_tool}, one {card.search_modes[0]} session per surface with a scripted model"
    )


def scorer_help() -> str:
    clients = "; ".join(f"{c.name}: {_searched(c)}" for c in search_cards())
    return (
        "embedding: by meaning (the cosine of vectors of the query's words and of each tool's name words and first"
        f" sentence, offline); {clients}; all: every one of them side by side with their agreement (default: keyword,"
        " bm25 and embedding)."
    )


def search_client_help() -> str:
    clients = (f"{c.name} ({c.title})" for c in search_cards())
    return (
        "Whose own tool search gives the findability and round-trip columns beside ours: auto (the first installed of: "
        + ", ".join(clients)
        + "; with none installed the columns are absent, saying why), a client by name (not installed: an error),"
        " or none (no client session is run).  [default: auto]"
    )


def roundtrip_client_help() -> str:
    cards = search_cards()
    clients = "; ".join(_searched(c) if len(cards) == 1 else f"{c.name}: {_searched(c)}" for c in cards)
    return f"Also the round trip as the client paid it: {clients}, a search per step."


def max_results_help() -> str:
    said = "; ".join(
        f"{c.name}: the max_results each {c.search_tool} call sends (default: none sent, {c.title}'s own default,"
        f" {c.search_reading.default_results})"
        for c in search_cards()
        if c.search_reading is not None
    )
    return f"{said}."
