"""What "no face-down card leaves the server" means, checkable on any JSON output.

Two packs hold two copies of each face, so a card name in an output proves
nothing by itself: an output hides the face-down cards when, for every face, it
shows no more copies than lie face up on the table.
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

from games.engine import Position, card_label, card_words
from games.engine.cards import Card, card_name

CARD_NAME = re.compile(r"^[A2-9TJQK][SHDC]$")
TURN_FRAMES = re.compile(r'<template id="turn-frames">(.*?)</template>', re.DOTALL)
FRAME_START = '<div data-move="'


def turn_frames_of(html: str) -> tuple[str, list[str]]:
    """``html`` without the last turn's frames (games/pages/playback.py), and each
    frame's piles: frame ``k`` is the table ``k`` moves into the last turn, and must
    show no more than lay face up then."""
    found = TURN_FRAMES.search(html)
    if found is None:
        return html, []
    frames = [part for part in found.group(1).split(FRAME_START) if part]
    return html[: found.start()] + html[found.end() :], frames


def face_up_names(position: Position) -> Counter[str]:
    """Faces a player may see on the table: foundations, houses, reserve tops,
    wastes and turned cards (R2.2-R2.4)."""
    shown: Counter[str] = Counter()
    for pile in [*position.foundations, *position.houses]:
        shown.update(card_name(c) for c in pile)
    for seat in position.seats:
        if seat.reserve:
            shown[card_name(seat.reserve[-1])] += 1
        shown.update(card_name(c) for c in seat.waste)
        if seat.turned is not None:
            shown[card_name(seat.turned)] += 1
    return shown


def face_down_cards(position: Position) -> list[Card]:
    """Every hand card, every reserve card but the top one, the reserve still face down
    (V9) or the face-down part of a stock (V14), and every card lying face down under
    a house (V7)."""
    hidden: list[Card] = []
    for seat in position.seats:
        hidden.extend(seat.hand)
        hidden.extend(seat.reserve[:-1])
        hidden.extend(seat.reserve_down)  # V9, V14
    for pile in position.houses_down:
        hidden.extend(pile)
    return hidden


def card_names_in(node: Any, out: Counter[str]) -> None:
    """Count every card name anywhere in a view.

    A seat sees its whole own waste (``waste.cards``) besides its ``top``: that
    top is the same physical card as the last of ``cards``, so it is counted once.
    """
    if isinstance(node, dict):
        waste_cards = node.get("cards")
        for key, value in node.items():
            if key == "top" and isinstance(waste_cards, list) and waste_cards:
                assert value == waste_cards[-1]
                continue
            card_names_in(value, out)
    elif isinstance(node, list):
        for item in node:
            card_names_in(item, out)
    elif isinstance(node, str) and CARD_NAME.match(node):
        out[node] += 1


def assert_hides(output: Any, position: Position) -> None:
    """``output`` (any JSON value) shows no face more often than it lies face up."""
    shown: Counter[str] = Counter()
    card_names_in(output, shown)
    up = face_up_names(position)
    for face, n in shown.items():
        assert n <= up[face], f"{face} shown {n} times, face up {up[face]} times"


def named_face_down(html: str, position: Position, seen: Counter[str]) -> list[str]:
    """The cards that lie face down only (no copy among ``seen``, the faces the reader
    may see) which ``html`` names anyway, in words ("queen of spades") or as a label."""
    lowered = html.lower()
    problems = []
    for card in face_down_cards(position):
        if seen[card_name(card)]:
            continue  # the other copy is face up: its name proves nothing
        for name, text in ((card_words(card), lowered), (card_label(card), html)):
            if name in text:
                problems.append(f"{name!r} is face down only, and the page names it")
    return problems
