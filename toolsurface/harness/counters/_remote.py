"""A keyed counter: a provider's counting endpoint, asked with the user's key for every request a measurement
needs that is not cached yet, a few at a time."""

from __future__ import annotations

import threading
import time
from collections.abc import Sequence
from concurrent.futures import Future, ThreadPoolExecutor, as_completed
from typing import Any

from toolsurface.harness.counters._cache import CachedCount, CountCache, shown_url
from toolsurface.harness.counters._http import (
    COUNT_DEADLINE_S,
    CountDeadline,
    Counted,
    StoppedByAnother,
    Wait,
    duration,
    send_count,
)
from toolsurface.harness.counters._providers import PROVIDERS
from toolsurface.harness.counters._spec import CounterSpec

__all__ = ["JOBS", "RemoteCounter"]

# Requests in flight at once: fast on a cold cache, gentle on a provider's rate limit.
JOBS = 4


class RemoteCounter:
    standalone = False

    def __init__(
        self,
        spec: CounterSpec,
        key: str,
        base_url: str,
        cache: CountCache,
        *,
        jobs: int = JOBS,
        deadline_s: float = COUNT_DEADLINE_S,
    ) -> None:
        assert spec.model is not None
        self.provider = PROVIDERS[spec.family]
        # Its provider adds a tool-use prompt to any request with a tool: the framing takes it in.
        self.tool_prompt = self.provider.tool_prompt
        self.model = spec.model
        self.id = spec.id
        self.url = self.provider.url(base_url, spec.model)
        self._key = key
        self._cache = cache
        self._jobs = jobs
        self._deadline_s = deadline_s
        # Its requests in one command share one deadline, from the first sent.
        self._deadline: CountDeadline | None = None
        # When the wait last told of ends: a request of the same count waiting no longer is not told again.
        self._told_until = 0.0
        self._told = threading.Lock()
        self._scripted = False
        self.sent = 0
        self.cached = 0

    def __repr__(self) -> str:
        return f"RemoteCounter({self.id!r}, {shown_url(self.url)!r})"  # never the key

    @property
    def name(self) -> str:
        return f"{self.id} (scripted endpoint)" if self._scripted else self.id

    @property
    def label(self) -> str:
        p = self.provider
        without = (
            "the request with one minimal tool, less that tool (the framing, which holds the tool-use prompt"
            f" {p.title} adds to any request with a tool)"
            if self.tool_prompt
            else "the request without it (the framing)"
        )
        if self._scripted:
            return (
                f"the scripted model endpoint's count in the shape of {p.title}'s {p.endpoint} for {self.model}"
                " (o200k_base of the request plus a fixed framing): not a figure of "
                f"{p.title}'s; the tools' tokens are the request with the list minus {without}"
            )
        return f"{p.title}'s {p.endpoint} for {self.model}: the tools' tokens are the request with the list minus {without}"

    @property
    def source(self) -> str:
        who = "the scripted model endpoint" if self._scripted else self.provider.title
        return f"{who} at {shown_url(self.url)}"

    def count_requests(self, lists: Sequence[Sequence[dict[str, Any]]]) -> list[int]:
        return self._count_bodies([self.provider.body(self.model, tools) for tools in lists])

    def count_texts(self, texts: Sequence[str]) -> list[int]:
        """Each text as the one user message of a request without tools, less the same request with the short
        message (its framing); an empty text is 0, asked for nothing."""
        from toolsurface.harness.counters._providers import PROMPT

        asked = [text for text in texts if text]
        if not asked:
            return [0 for _ in texts]
        framing, *counts = self._count_bodies([self.provider.message(self.model, t) for t in [PROMPT, *asked]])
        found = iter(counts)
        return [max(0, next(found) - framing) if text else 0 for text in texts]

    def _count_bodies(self, bodies: Sequence[Any]) -> list[int]:
        family, model = self.provider.family, self.model
        digests = [CountCache.digest(self.url, body) for body in bodies]
        found: dict[str, CachedCount] = {}
        missing: dict[str, Any] = {}
        for digest, body in zip(digests, bodies, strict=True):
            if digest in found or digest in missing:
                continue
            hit = self._cache.get(family, model, digest)
            if hit is None:
                missing[digest] = body
            else:
                found[digest] = hit
                self.cached += 1
        if missing:
            found.update(self._send(missing))
        self._scripted = self._scripted or any(found[d].scripted for d in digests)
        return [found[d].tokens for d in digests]

    def _tell(self, wait: Wait) -> None:
        """One line while a wait lasts: the first request to wait says it, those waiting with it no longer do not."""
        from toolsurface.harness.notices import notice

        until = time.monotonic() + wait.seconds
        with self._told:
            if wait.seconds < 1 or until <= self._told_until + 1:
                return
            self._told_until = until
        asked = "as it asked (Retry-After)" if wait.asked else "before trying again"
        notice(
            f"{self.id}: {wait.said}; waiting {duration(wait.seconds)} {asked}, then try {wait.next_try} of"
            f" {wait.tries}",
            once=f"count wait {id(self)} {until}",
            now=True,
        )

    def _send(self, missing: dict[str, Any]) -> dict[str, CachedCount]:
        got: dict[str, CachedCount] = {}
        stop = threading.Event()
        if self._deadline is None:
            self._deadline = CountDeadline.starting_now(self._deadline_s)
        deadline = self._deadline

        def count(body: Any) -> Counted | None:
            # The worker that fails sets `stop` itself: a worker freed meanwhile must not send the next body
            # before the main thread has seen the failure.
            if stop.is_set():
                return None
            try:
                return send_count(
                    self.id, self.provider, self.url, self._key, body, stop=stop, deadline=deadline, waiting=self._tell
                )
            except StoppedByAnother:
                return None  # the request that failed first is the count's error
            except BaseException:
                stop.set()
                raise

        with ThreadPoolExecutor(max_workers=min(self._jobs, len(missing))) as pool:
            futures: dict[Future[Counted | None], str] = {
                pool.submit(count, body): digest for digest, body in missing.items()
            }
            try:
                for future in as_completed(futures):
                    counted = future.result()
                    if counted is None:
                        continue
                    self.sent += 1
                    digest = futures[future]
                    got[digest] = CachedCount(counted.tokens, counted.scripted)
                    self._cache.put(self.provider.family, self.model, digest, self.url, got[digest])
            except BaseException:
                stop.set()
                for pending in futures:
                    pending.cancel()
                raise
        return got
