"""`session import`: the session files the clients already write, as a study of one server's tools."""

from toolsurface.harness.session.importer._import import (
    IMPORT_FORMAT,
    ImportOutcome,
    SessionRow,
    import_sessions,
    parse_since,
)

__all__ = ["IMPORT_FORMAT", "ImportOutcome", "SessionRow", "import_sessions", "parse_since"]
