"""The Conderis study's docs: where each tool's text comes from in the seed page (`provenance`), v2 -> v2-live by
correction (`live_corrections`), and `readme`, which writes toolsurface/surfaces/conderis/README.md from them with
what each choice the page leaves open costs. Docs tooling: no surface imports it."""
