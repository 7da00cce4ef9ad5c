"""Candidate tool lists, one folder per study: Conderis (`surfaces.conderis`, the default study) and the help
desk (`surfaces.helpdesk`). Each folder declares its `STUDY` (`harness.surface.Study`): its surfaces in their
order and the defaults the commands take for them."""
