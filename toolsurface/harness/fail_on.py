"""What the diff's `--fail-on` takes (and the Action's `fail-on`): a breaking change, a changed text to review,
any difference at all. The diff's records decide what each one fails on (`SurfaceDiff.fails`); this module
imports nothing, so the command's option names them cheaply."""

from __future__ import annotations

__all__ = ["FAIL_ON"]

FAIL_ON = ("breaking", "review", "any")
