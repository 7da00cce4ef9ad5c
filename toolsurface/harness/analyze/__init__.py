"""Reading tool lists: findability, the on-demand round trip, the linter and the diff. One text model (`tokenise`, `stem`, `first_sentence`, ...) serves
them all; each reading is a subpackage whose face says what it offers (`toolsurface.harness.analyze.diff`,
`.findability`, `.lint`, `.roundtrip`).
"""

from toolsurface.harness.analyze._text import (
    first_sentence,
    name_words,
    plain_words,
    sentences,
    split_description,
    stem,
    stems,
    tokenise,
)

__all__ = [
    "first_sentence",
    "name_words",
    "plain_words",
    "sentences",
    "split_description",
    "stem",
    "stems",
    "tokenise",
]
