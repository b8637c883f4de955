"""The reference's own contract under byte-level fuzzing, and the saved corpus replayed."""

from __future__ import annotations

import pytest

from mcpref.fuzz.campaign.selffuzz import CORPUS, session_holds


@pytest.mark.spec("STDIO-SURVIVE", "STDIO-STDOUT-MESSAGES-ONLY", "FRAME-MAX-LINE")
def test_the_session_holds_for_generated_bytes() -> None:
    session_holds()


@pytest.mark.spec("STDIO-SURVIVE", "FRAME-CHUNK-INVARIANT")
def test_the_saved_corpus_still_holds() -> None:
    inputs = sorted(CORPUS.iterdir())
    assert inputs, f"no corpus under {CORPUS}"
    for path in inputs:
        session_holds.hypothesis.fuzz_one_input(path.read_bytes())  # type: ignore[attr-defined]
