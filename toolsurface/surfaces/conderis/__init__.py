"""The Conderis study as one domain folder, as tau2-bench keeps a domain: the kinds and the values of their
fields (`kinds`), the fixed project's data model (`project`) and its fixture (`fixture`, `fixtures/`), each
surface's tools declared beside their handlers (`before_v2_tools`, `consistent_tools`, and `v2_tools` for
v2-first, v2 and v2-live, whose designs are data in `v2_design`), imported only when a surface is built or
served; the entry modules `before_v2`, `consistent`, `v2_first`, `v2` and `v2_live` only name them. The tools
modules share `_shared`, `_lines` and `_per_kind`, the handlers `_shared_handlers`; `pieces` tags each piece of
a tool's text with where it comes from in the seed page; `checks` are the outcome checks of its scenarios that
read Conderis state. A surface is data and handlers: what measures it and writes `README.md` from those
measures (where each text comes from, what each choice the page leaves open costs, v2 -> v2-live by
correction) is docs tooling, `docs/conderis/`, which this package does not import.

`STUDY` is what the harness takes from here: the surfaces in their order, the findability queries, the
round-trip task, the calls `probe` makes of each surface (`calls/`, the sessions' read-only calls), the seed's
figures, the checks and the comparison the report states. It is the default study, measured when no surface is named.
"""

from pathlib import Path

from toolsurface.harness.surface import Study

__all__ = ["STUDY", "SURFACES"]

_HERE = Path(__file__).parent
SURFACES = ("before-v2", "consistent", "v2-first", "v2", "v2-live")

STUDY = Study(
    name="conderis",
    surfaces=SURFACES,
    queries=_HERE / "queries.json",
    task=_HERE / "roundtrip.json",
    calls=_HERE / "calls",
    seed_figures=_HERE / "seed.json",
    checks="toolsurface.surfaces.conderis.checks",
    headline=("before-v2", "v2"),
    default=True,
)
