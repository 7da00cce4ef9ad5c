"""The counters asked for, ready to count: o200k and harmony offline, a keyed one with the user's key from
the environment (checked before anything is measured, so a missing key costs nothing and writes nothing)."""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from toolsurface.harness.counters._spec import CounterSpec, CountingError

if TYPE_CHECKING:
    from toolsurface.harness.measure import ListCounter


def make_counters(
    specs: Sequence[CounterSpec],
    urls: Mapping[str, str] | None = None,
    *,
    environ: Mapping[str, str] | None = None,
    cache: Path | None = None,
) -> list[ListCounter]:
    """One counter per spec; `urls` maps a family (or `*`) to its counting URL, `cache` is the cache folder."""
    from toolsurface.harness.counters._cache import CountCache
    from toolsurface.harness.counters._providers import PROVIDERS
    from toolsurface.harness.measure import O200K_COUNTER

    environ = os.environ if environ is None else environ
    urls = urls or {}
    counters: list[ListCounter] = []
    for spec in specs:
        if spec.family == "o200k":
            counters.append(O200K_COUNTER)
        elif spec.family == "harmony":
            from toolsurface.harness.counters._harmony import HarmonyCounter

            counters.append(HarmonyCounter())
        else:
            from toolsurface.harness.counters._http import key_headers
            from toolsurface.harness.counters._remote import RemoteCounter

            provider = PROVIDERS[spec.family]
            key = environ.get(provider.key_env, "").strip()
            if not key:
                raise CountingError(
                    f"{spec.id}: no key: set {provider.key_env} to count with {provider.title}'s"
                    f" {provider.endpoint}, or leave {spec.family} out of --tokens"
                )
            key_headers(spec.id, provider, key)  # a key no header can carry is refused before anything is measured
            base = urls.get(spec.family) or urls.get("*") or provider.base_url
            counters.append(RemoteCounter(spec, key, base, CountCache(cache)))
    return counters
