"""GitHub Actions workflow commands: the annotation lines a check's `--format github` prints."""

from __future__ import annotations

from typing import Literal

# How an annotation is shown: failing the check, worth a look, or for the record.
Level = Literal["error", "warning", "notice"]


def github_escape(text: str, *, property_value: bool = False) -> str:
    """Workflow-command escaping: %, CR and LF always; `:` and `,` too inside a property."""
    text = text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
    if property_value:
        text = text.replace(":", "%3A").replace(",", "%2C")
    return text


def github_line(level: Level, title: str, message: str) -> str:
    """One annotation: `::error title=...::message`, both escaped, with any secret they show redacted
    (harness.redact), as in the job summary beside them: an Actions log is kept and shown to others."""
    from toolsurface.harness.redact import redacted_text

    title, message = redacted_text(title), redacted_text(message)
    return f"::{level} title={github_escape(title, property_value=True)}::{github_escape(message)}"
