"""Texts embedded by meaning offline: the model loads from its own wheel with the network unreachable."""

from __future__ import annotations

import subprocess
import sys

from tests.helpers.offline import UNREACHABLE
from toolsurface.harness.analyze._embed import embedder

_OFFLINE = (
    UNREACHABLE
    + """
from toolsurface.harness.analyze._embed import embedder
vectors = embedder().vectors(["search tickets by their title", "find tickets whose title holds a text"])
print(round(float(vectors[0] @ vectors[1]), 2))
"""
)


def test_the_embedding_model_loads_and_embeds_with_the_network_unreachable() -> None:
    done = subprocess.run([sys.executable, "-c", _OFFLINE], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert float(done.stdout) > 0.5


def test_texts_that_mean_alike_are_nearer_than_texts_that_do_not() -> None:
    model = embedder()
    search, find, delete = model.vectors(
        ["Search tickets by words in their title.", "Find tickets containing a text.", "Delete a customer account."]
    )
    assert float(search @ find) > float(search @ delete) + 0.2
    assert abs(float(search @ search) - 1.0) < 1e-5
    assert model.vectors([]).shape == (0, 256) and model.label.startswith("wordllama 0.4")
