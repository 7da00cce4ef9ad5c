"""Which counters were asked for: `--tokens o200k|harmony|anthropic[:MODEL]|openai[:MODEL]|gemini[:MODEL]`,
comma-separated, or `tokens = [...]` in a configured target. Parsing imports nothing heavy."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from toolsurface.harness.errors import ToolsurfaceError

FAMILIES = ("o200k", "harmony", "anthropic", "openai", "gemini")
KEYED_FAMILIES = ("anthropic", "openai", "gemini")
# The model counted when none is named; each figure names the model it was counted for.
DEFAULT_MODELS = {"anthropic": "claude-opus-5-5", "openai": "gpt-5", "gemini": "gemini-2.5-pro"}
_MODEL = re.compile(r"[A-Za-z0-9][A-Za-z0-9._@-]*")
CHOICES = "o200k, harmony, anthropic[:MODEL], openai[:MODEL], gemini[:MODEL]"


class CountingError(ToolsurfaceError):
    """A counter that cannot count: unknown, no key, refused by its provider, unreachable."""


@dataclass(frozen=True)
class CounterSpec:
    family: str
    model: str | None = None

    @property
    def id(self) -> str:
        return f"{self.family}:{self.model}" if self.model else self.family

    @property
    def keyed(self) -> bool:
        return self.family in KEYED_FAMILIES


def _one(text: str) -> CounterSpec:
    family, colon, model = text.strip().partition(":")
    family = family.strip().lower()
    if family not in FAMILIES:
        raise CountingError(f"unknown counter {text.strip()!r}; choose from {CHOICES}")
    if family not in KEYED_FAMILIES:
        if colon:
            raise CountingError(f"counter {family} takes no model ({text.strip()!r}); choose from {CHOICES}")
        return CounterSpec(family)
    model = model.strip()
    if model.startswith("models/"):
        model = model[len("models/") :]
    if not colon:
        model = DEFAULT_MODELS[family]
    if not _MODEL.fullmatch(model):
        raise CountingError(
            f"unknown model {model!r} for counter {family}: a model name is letters, digits and . _ @ -"
            f" ({family}:MODEL, e.g. {family}:{DEFAULT_MODELS[family]})"
        )
    return CounterSpec(family, model)


def parse_counters(given: str | Iterable[str]) -> tuple[CounterSpec, ...]:
    """The counters asked for, in order, each once; `given` is `a,b` text or its items."""
    items = given.split(",") if isinstance(given, str) else [part for item in given for part in item.split(",")]
    specs: list[CounterSpec] = []
    for item in items:
        if not item.strip():
            continue
        spec = _one(item)
        if spec not in specs:
            specs.append(spec)
    if not specs:
        raise CountingError(f"no counter named; choose from {CHOICES}")
    return tuple(specs)


def parse_count_urls(given: Iterable[str]) -> dict[str, str]:
    """`--count-url [FAMILY=]URL` items: a family's counting URL (a proxy's, or the scripted endpoint's); a URL
    with no family goes for every keyed family."""
    urls: dict[str, str] = {}
    for item in given:
        family, equals, url = item.partition("=")
        if not equals or "://" in family:
            family, url = "*", item
        family = family.strip().lower()
        url = url.strip()
        if family != "*" and family not in KEYED_FAMILIES:
            raise CountingError(
                f"--count-url {item}: {family} has no counting URL; give one for {', '.join(KEYED_FAMILIES)}"
            )
        urls[family] = _checked_url(family, url)
    return urls


def _checked_url(family: str, url: str) -> str:
    """An http(s) URL with no credentials, query or fragment: a key goes in its variable, never in a URL that
    might be shown or kept (an error here shows the URL without them)."""
    from urllib.parse import urlsplit

    from toolsurface.harness.counters._cache import shown_url

    which = "" if family == "*" else f"{family}="
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018  (a port that is not a number raises here)
    except ValueError:
        raise CountingError(f"--count-url {which}URL: not a URL") from None
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise CountingError(f"--count-url {which}URL: expected an http:// or https:// URL, got {shown_url(url)!r}")
    if parts.username is not None or parts.password is not None or parts.query or parts.fragment:
        raise CountingError(
            f"--count-url {which}URL: give {shown_url(url)} without credentials or a query string; the key goes in"
            " its variable (ANTHROPIC_API_KEY, OPENAI_API_KEY, GEMINI_API_KEY)"
        )
    return url
