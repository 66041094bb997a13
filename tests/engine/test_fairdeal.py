"""The fair deal's derivation (docs/fair-deal.md): the commitment, the keyed hash of
the contributions, the verification, and the ``verify`` command."""

from __future__ import annotations

import hashlib
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.engine import Game, card_name, deal, fairdeal, seed_commitment
from games.engine.cli import main

HEX = st.binary(min_size=16, max_size=32).map(bytes.hex)
SECRETS = st.binary(min_size=32, max_size=32).map(bytes.hex)

# The worked example of docs/fair-deal.md, redone there with sha256sum.
SECRET = "7f1c0b9e4a2d3c5b6e8f1a0d2c4b6a8e9f1e3d5c7b9a0f2e4d6c8b0a1f3e5d7c"
A_GIVES = "0123456789abcdef0123456789abcdef"
B_GIVES = "fedcba9876543210fedcba9876543210"
SEED_LIKE = "0" * 64


def test_the_worked_example_of_the_docs() -> None:
    text = Path("docs/fair-deal.md").read_text()
    made = hashlib.sha256(f"rbank-commit/2:{SECRET}".encode()).hexdigest()
    seed = hashlib.sha256(f"rbank-seed/2:{SECRET}\nA:{A_GIVES}\nB:{B_GIVES}\n".encode()).hexdigest()
    assert fairdeal.commitment(SECRET) == made
    assert fairdeal.derive_seed(SECRET, [A_GIVES, B_GIVES]) == seed
    for value in (SECRET, A_GIVES, B_GIVES, made, seed):
        assert value in text
    first = deal(seed)
    tops = [card_name(first.seats[s].reserve[-1]) for s in (0, 1)]
    assert f"A's reserve shows {tops[0]} and B's {tops[1]}" in text


@given(SECRETS, st.lists(HEX, min_size=2, max_size=3))
def test_the_seed_is_the_sha256_of_the_documented_message(secret: str, given_: list[str]) -> None:
    lines = "".join(f"{letter}:{value}\n" for letter, value in zip("ABC", given_, strict=False))
    expected = hashlib.sha256(f"rbank-seed/2:{secret}\n{lines}".encode()).hexdigest()
    assert fairdeal.derive_seed(secret, given_) == expected
    assert fairdeal.verify(2, fairdeal.commitment(secret), expected, secret, given_).ok


@given(SECRETS, HEX, HEX, HEX)
def test_every_contribution_changes_the_seed(secret: str, a: str, b: str, other: str) -> None:
    seed = fairdeal.derive_seed(secret, [a, b])
    if other != b:
        assert fairdeal.derive_seed(secret, [a, other]) != seed
    if other != a:
        assert fairdeal.derive_seed(secret, [other, b]) != seed
    if a != b:  # the seat order counts
        assert fairdeal.derive_seed(secret, [b, a]) != seed


@given(SECRETS, SECRETS, HEX, HEX)
def test_another_secret_neither_commits_nor_derives_alike(
    secret: str, other: str, a: str, b: str
) -> None:
    if other == secret:
        return
    seed = fairdeal.derive_seed(secret, [a, b])
    assert fairdeal.commitment(other) != fairdeal.commitment(secret)
    assert not fairdeal.verify(2, fairdeal.commitment(secret), seed, other, [a, b]).ok
    assert not fairdeal.verify(2, fairdeal.commitment(other), seed, secret, [a, b]).ok


def test_a_contribution_is_cleaned_or_refused() -> None:
    assert fairdeal.clean_contribution(" " + A_GIVES.upper() + " ") == A_GIVES
    for bad in ("", "ab" * 15, "ab" * 33, "g" * 32, "a" * 33, None, 12, "é" * 32):
        with pytest.raises(fairdeal.BadContribution):
            fairdeal.clean_contribution(bad)
    with pytest.raises(fairdeal.BadContribution):
        fairdeal.derive_seed("not a secret", [A_GIVES, B_GIVES])


def test_drawn_values_are_fresh_and_valid() -> None:
    secrets_ = {fairdeal.new_secret() for _ in range(50)}
    assert len(secrets_) == 50
    assert all(len(s) == 64 and int(s, 16) >= 0 for s in secrets_)
    assert fairdeal.clean_contribution(fairdeal.new_contribution())


def test_a_scheme_1_game_still_verifies() -> None:
    assert fairdeal.verify(1, seed_commitment(8), "8").ok
    assert not fairdeal.verify(1, seed_commitment(8), "9").ok
    assert not fairdeal.verify(3, "x", "8").ok


def test_the_export_carries_the_deal_tags_and_the_command_verifies_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    seed = fairdeal.derive_seed(SECRET, [A_GIVES, B_GIVES])
    game = Game(seed, stop_mode="referee")
    game.resign(game.to_move)
    tags = [
        ("DealScheme", "2"),
        ("Commitment", fairdeal.commitment(SECRET)),
        ("Contributions", f"A={A_GIVES}:player B={B_GIVES}:server"),
        ("Secret", SECRET),
    ]
    text = game.export(deal_tags=tags)
    assert "SeedHash" not in text and f'[Seed "{seed}"]' in text
    path = tmp_path / "game.txt"
    path.write_text(text)
    assert main(["verify", str(path)]) == 0
    out = capsys.readouterr().out
    a_top = card_name(deal(seed).seats[0].reserve[-1])
    assert out.count("ok ") == 2 and f"deal A: reserve {a_top}, houses" in out
    path.write_text(text.replace(SECRET, SECRET[::-1]))
    assert main(["verify", str(path)]) == 1
    assert "FAILED" in capsys.readouterr().out


def test_the_command_verifies_an_old_export_and_given_values() -> None:
    game = Game(8, stop_mode="referee")
    game.resign(game.to_move)
    old = subprocess.run(
        [sys.executable, "-m", "games.engine", "verify", "-"],
        input=game.export(),
        capture_output=True,
        text=True,
        check=False,
    )
    assert old.returncode == 0, old.stdout + old.stderr
    assert "scheme 1" in old.stdout and "ok SHA-256(rbank-deal/1:8)" in old.stdout
    args = ["verify", "--commitment", fairdeal.commitment(SECRET), "--secret", SECRET]
    assert main([*args, "--contribution", f"A={A_GIVES}", "--contribution", f"B={B_GIVES}"]) == 0
    swapped = ["--contribution", f"A={B_GIVES}", "--contribution", f"B={A_GIVES}"]
    seed = fairdeal.derive_seed(SECRET, [A_GIVES, B_GIVES])
    assert main([*args, *swapped, "--seed", seed]) == 1  # not the seed revealed
    other = ["verify", "--commitment", fairdeal.commitment(SEED_LIKE), "--secret", SECRET]
    assert main([*other, *swapped]) == 1  # not the secret committed to
    assert main([*args, "--contribution", "A=xyz"]) == 2
    assert main(["verify"]) == 2
