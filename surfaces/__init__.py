"""Candidate tool lists. The bundled ones are the Conderis study in `surfaces.conderis`."""
