"""The help-desk study, built only with the handler kit and the kinds engine: the kinds as data (`kinds`),
the one rule they cannot say (`rules`), a many-tool surface (`tools`) and a consolidated one (`desk`), and
the fixture they both serve (`fixtures/helpdesk.json`). `STUDY` gives the harness its surfaces in their order,
its findability queries, its round-trip task and the calls `probe` makes of each surface (`calls/`)."""

from pathlib import Path

from toolsurface.harness.surface import Study

__all__ = ["FIXTURE", "STUDY"]

_HERE = Path(__file__).parent
FIXTURE = _HERE / "fixtures" / "helpdesk.json"

STUDY = Study(
    name="helpdesk",
    surfaces=("helpdesk-tools", "helpdesk"),
    queries=_HERE / "queries.json",
    task=_HERE / "roundtrip.json",
    calls=_HERE / "calls",
)
