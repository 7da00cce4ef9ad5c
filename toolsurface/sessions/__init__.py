"""The bundled scenarios, their scripts and the recorded studies, as package data (found with importlib.resources)."""
