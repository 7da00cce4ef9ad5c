"""The Conderis study as one domain folder, as tau2-bench keeps a domain: the kinds and the values of their
fields (`kinds`), the fixed project's data model (`project`) and its fixture (`fixture`, `fixtures/`), and
each surface's tools beside its handlers: `before_v2` and `before_v2_stub`, `consistent` and
`consistent_stub`, `v2_first`, `v2` and `v2_live` over `_eight` and `_eight_stub`, with their three designs
as data in `_eight_design` (`live_corrections` breaks v2 -> v2-live down by correction). The tool modules
share `_shared`, `_lines` and `_per_kind`, and the old surfaces' rules with their handlers (`_before_v2_rules`,
`_consistent_rules`); the handler modules share `_stub` and are imported only when a stub is made. `README.md` says where each tool's
text comes from in the seed page and what each choice the page leaves open costs.
"""
