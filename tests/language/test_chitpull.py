"""A chit-pull turn (language §10.4): a named `repeat` that draws chits and dispatches on them,
ending at the second initiative chit. Its length has the chance the cup gives it, exactly."""

from __future__ import annotations

from fractions import Fraction
from math import comb
from pathlib import Path

from interpreter.cli import main

ROOT = Path(__file__).resolve().parent.parent.parent


def test_the_turn_lasts_as_long_as_the_second_initiative_chit_takes(capsys, monkeypatch):
    """Five chits, two of them initiative chits: the second of them is drawn k-th with chance
    (k - 1) / C(5, 2), for k from 2 to 5."""
    monkeypatch.chdir(ROOT)
    assert main(["odds", "tests/lang/chitpull_turn.scenario", "--fact", "activations in turn 1"]) == 0
    rows = [line.split() for line in capsys.readouterr().out.splitlines() if line.startswith("  ")]
    got = {int(r[0]): Fraction(r[1]) for r in rows if r[0].isdigit()}
    assert got == {k: Fraction(k - 1, comb(5, 2)) for k in range(2, 6)}


def test_every_turn_starts_from_a_full_cup_and_the_initiative_carries_over(capsys, monkeypatch):
    monkeypatch.chdir(ROOT)
    assert main(["play", "tests/lang/chitpull.rules", "--seed", "4", "--detail"]) == 0
    lines = capsys.readouterr().out.splitlines()
    refills = [i for i, line in enumerate(lines) if line.startswith("[2.1] refill chits")]
    assert len(refills) == 2, "one refill at the start of each of the two turns"
    ends = [line for line in lines if "the second initiative chit ends the turn" in line]
    assert len(ends) == 2
    holders = [line.split()[-1] for line in lines if line.startswith("[2.3] initiative is now")]
    assert len(holders) == 2 and holders[0] != holders[1], "each turn's first initiative chit passes it on"
    assert "[2.5] record step of turn 2 = activations" in lines, "step() names the step being played"
