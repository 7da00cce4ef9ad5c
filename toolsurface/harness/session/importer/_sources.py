"""Which session files an import reads: those every client's card says its user has (in the home, or where the
variables the client honours move them), or those in the paths given, each with the client whose file it is.
A file that cannot be read as one is a row that says why, never a stop."""

from __future__ import annotations

import errno
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from toolsurface.harness.agents import ClientCard
from toolsurface.harness.errors import ToolsurfaceError

__all__ = ["SessionSource", "clients_with_sessions", "find_sources", "home_of", "shown_path"]


@dataclass(frozen=True)
class SessionSource:
    """One session file and the client whose it is (None: no card's files match it; every reader is tried)."""

    path: Path
    client: str | None
    # Why it is not read (a link out of the home, too large), or None.
    problem: str | None = None


def home_of(env: Mapping[str, str]) -> Path:
    return Path(env["HOME"]) if env.get("HOME") else Path.home()


def shown_path(path: Path, home: Path) -> str:
    """`path` as a study names it: under the home as `~/...`, else as given."""
    try:
        return "~/" + path.absolute().relative_to(home.absolute()).as_posix()
    except ValueError:
        return str(path)


def clients_with_sessions(client: str | None = None) -> list[ClientCard]:
    """The cards whose clients' session files an import reads: every one that has a reader, or the one named."""
    from toolsurface.harness.agents import client_cards

    cards = [card for card in client_cards() if card.sessions is not None and card.sessions.readable]
    if client is None:
        return cards
    chosen = [card for card in cards if card.name == client]
    if not chosen:
        names = ", ".join(card.name for card in cards)
        raise ToolsurfaceError(
            f"--client: no client {client!r} whose session files toolsurface reads; those are {names}"
        )
    return chosen


# Why a file found is not read when it is a link to a link ... back to itself.
LOOP = "a symbolic link that loops back to itself: not read"


def _resolved(path: Path) -> Path:
    """`path` with its links followed, as far as they go (a folder in a loop as it is)."""
    try:
        return path.resolve()
    except (RuntimeError, OSError):
        return path.absolute()


def _checked(path: Path, client: str | None, roots: Sequence[Path], max_bytes: int) -> SessionSource:
    """A found file, or why it is not read: a link to a file outside the folders it was found in, a file over
    `max_bytes`, or something other than a file."""
    try:
        resolved = path.resolve(strict=True)
        info = resolved.stat()
    except RuntimeError:  # Python before 3.13 says a loop so
        return SessionSource(path, client, LOOP)
    except OSError as error:
        said = LOOP if error.errno == errno.ELOOP else f"cannot be read: {error.strerror or error}"
        return SessionSource(path, client, said)
    if path.is_symlink() and not any(resolved.is_relative_to(_resolved(root)) for root in roots):
        return SessionSource(path, client, f"a link out of the home (to {resolved}): not read")
    if not resolved.is_file():
        return SessionSource(path, client, "not a file")
    if info.st_size > max_bytes:
        return SessionSource(
            path, client, f"{info.st_size / 2**20:,.0f} MB, over the {max_bytes // 2**20} MB a session file is read to"
        )
    return SessionSource(path, client)


def find_sources(
    paths: Sequence[Path], cards: Sequence[ClientCard], env: Mapping[str, str], max_bytes: int
) -> list[SessionSource]:
    """Each session file to read: with no paths, every card's files for the user of `env`; a file given is read
    by the client whose files it matches (else by every reader in turn), a folder given as a client's folder and
    as a home."""
    home = home_of(env)
    found: dict[Path, SessionSource] = {}

    def add(path: Path, client: str | None, roots: Sequence[Path]) -> None:
        found.setdefault(path.absolute(), _checked(path, client, roots, max_bytes))

    if not paths:
        for card in cards:
            assert card.sessions is not None
            root = card.sessions.root(env)
            for path in card.sessions.found(env):
                add(path, card.name, (home, root))
        return list(found.values())
    for given in paths:
        if not os.path.lexists(given):
            raise ToolsurfaceError(f"{given}: no such file or folder")
        if _checked(given, None, (), max_bytes).problem == LOOP:
            raise ToolsurfaceError(f"{given}: {LOOP.removesuffix(': not read')}")
        if given.is_dir():
            for card in cards:
                assert card.sessions is not None
                for root in (given, card.sessions.root({"HOME": str(given)})):
                    if card.sessions.files and root.is_dir():
                        for path in sorted(root.glob(card.sessions.files)):
                            add(path, card.name, (given, home))
            continue
        owner = next((c.name for c in cards if c.sessions is not None and given.match(c.sessions.files)), None)
        add(given, owner if owner is not None or len(cards) > 1 else cards[0].name, (given.parent, home))
    return list(found.values())
