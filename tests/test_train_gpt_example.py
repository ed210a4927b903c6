"""`examples/train_gpt.py`, the README's training run, at tiny sizes: it trains, and
xshard.jit's losses are jax.jit's."""

from __future__ import annotations

import importlib
from pathlib import Path

EXAMPLES = Path(__file__).parents[1] / "examples"


def test_train_gpt_example_learns_and_matches_jax_jit(monkeypatch, capsys):
    monkeypatch.syspath_prepend(str(EXAMPLES))
    train_gpt = importlib.import_module("train_gpt")
    argv = ["--steps", "8", "--batch", "8", "--seq", "16", "--width", "32", "--compare"]
    ours, theirs = train_gpt.main(argv)
    assert (ours.name, theirs.name) == ("xshard.jit", "jax.jit")
    assert ours.losses[-1] < ours.losses[0] - 0.2, ours.losses
    for a, b in zip(ours.losses, theirs.losses, strict=True):
        assert abs(a - b) <= 1e-3 * abs(b), (ours.losses, theirs.losses)
    assert "final losses differ by" in capsys.readouterr().out
