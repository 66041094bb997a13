"""Foster's illustrative two-pack hand (Foster's Russian Bank, 1920, pp.18-46), replayed
under the `pagat` rules.

Source: ``/work/shared/seeds/001_3dac3f95c419216d.txt`` (OCR; page numbers below are
the book's). Foster has the reader sort 32 red-backed and 24 blue-backed cards into a
known order, deal them, and follow the play turn by turn through Diagrams 1-6. Here
the deal and the described plays are rebuilt as position documents (via
``tests.engine.builders``) and each play is put to the engine. Where Foster's own rules
(RULES.md V14) allow a play that pagat forbids, the test asserts pagat's verdict and
says why; where the text must be followed past such a play, the step is carried out
by hand on the position document (``_by_hand``) after the engine has refused it.

Mapping of terms and seats
--------------------------
* Foster's red player, who won the cut and plays first (p.22), is seat ``A``; the
  blue player is seat ``B``.
* Foster's "stock" is our reserve, "hand" our hand, "discard pile" our waste, a
  "space" an empty house, the "tableau" the houses, the ace "foundations" ours.
* Houses: the four red tableau cards in the order dealt (3C 7H 6C AS) are ``H1..H4``,
  the four blue ones (KD 2D 5D 6S) ``H5..H8``. Foundations are numbered in the order
  they are started: F1 spades, F2 diamonds (blue's DA), F3 clubs, F4 diamonds (red's DA).
* Foster's stock is 12 cards and he deals only the sorted cards: red 12 + 4 + 16 in
  hand (his 36-card hand less the 20 unsorted cards, p.45), blue 12 + 4 + 8 (less 28).
  The positions are therefore partial (NOTATION.md allows that); the pagat counts of
  13 reserve / 35 hand cards (R2.2, R2.4) do not apply to them.
* Pack identity is ignored (R1.1): a blue card on a red house is just a card.

Reconstruction
--------------
The OCR garbles suit symbols; the sorting lists (pp.19-20) decode, with the cards the
text names in words as checks, to the "take-off" orders ``RED_PACK`` and ``BLUE_PACK``
(first card taken = top of the face-down pile). Dealing 12 to the stock (first dealt
at the bottom), 4 to the tableau and the rest to the hand gives exactly the cards
Foster names: red tableau 3C 7H 6C AS, blue KD 2D 5D 6S (pp.21-22); red stock top 2D
then TD, 4H, 4C, 9C, 7D, 3D, JC, AC, QS, 2C, 8S (pp.25-26, 34-35); red hand 6D, 8C, 9S,
5C, 7S, 6S, 3S, 7C, AD, 5S, JH, 2S, KS, 5H, KC, KH (pp.26, 39-42); blue stock top KH
then 8D, QS, 9D, AD, 4D, 2S, 3D, JD, TC, 9H, TS (pp.29-31); blue hand 3C, 9S (p.34),
QC, 4S, KS, QH, JC, 6H (p.42).

Which space each card fills is mostly not said; the choice made here is noted at the
move. Two points are inferred rather than read:
* p.30: after the deuce and trey of diamonds go up, Foster moves the 3C onto the 4H
  and counts two open spaces. Only one opens unless the lone red 2D follows onto the
  3C; p.41 bears this out (red's own DA is built up to the trey and one space opens:
  the blue 3D lay alone, the red 2D on the 3C).
* p.34-35: the OCR loses where red's stock QS goes; the KD is the only place for it.

The diagrams themselves are unreadable in the OCR; their layouts are derived from the
text. Diagrams 1 (deal), 3 (after red's first turn), 4 (after blue's first turn), 5
(after red's second turn) and 6 (after blue's second turn) are written out below and
checked against the replay; Diagram 2 (red's tableau moves before the stock) is the
state checked in ``test_the_three_optional_tableau_moves_are_legal``.

Where Foster and pagat disagree in this hand
--------------------------------------------
1. Face-down stock (V14) vs face-up reserve top (R2.2): pagat's red sees the 2D on its
   reserve from the start (p.25 has it turned only after the tableau moves), and
   pagat's blue sees the 4D under the DA: P1 then forces the 4D (and the 2S) to the
   foundations *before* the 3C goes onto the 4H, which Foster does first (p.30).
2. Taking cards back from the opponent's waste (pp.29, 35, 42): Foster lets a player
   take the top card of the opponent's discard pile (blue says he can take his 7D
   back; red takes the 6S back to use the 5H). Pagat: never available, S5 (R4.2, R5.5).
3. Own waste available (pp.38-39, red's 9D, 8D, 7D, 6D; p.45, blue's 5S-TS released
   by the 4S): pagat's preset has V1 off, so these are refused with S5.
4. Loading from the tableau after playing own cards: Foster's rule (p.9) allows
   tableau cards onto the opponent's piles only *before* the mover plays a card of his
   own, yet blue loads the 8D from the 9C after three stock plays (pp.29-30). Pagat has
   no such limit; the engine accepts it.
5. One card turned before tableau changes / no return to the stock (pp.15, 29-30):
   does not arise in pagat, whose reserve top is always face up.
6. Discard cards never fill spaces (pp.8, 35): in pagat no waste card is available at
   all, so the question does not arise; hand cards fill spaces in both (blue's 3C,
   p.34; red's 2S, KS, KC, p.42; blue's KS, p.45).
7. Who starts: Foster by cut (p.2); pagat by the lower top reserve card (R3.1). Here
   both give red: 2D against KH.
Everything else Foster describes in this hand is legal under pagat, including every
compulsory foundation play he points out (SA, DA, 2D/3D, AC, 2C, 3C, 5D once
uncovered, QC then KC, 4S).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from games.engine import Position, from_document, to_document
from games.engine.cards import is_red, parse_card, rank_of
from games.engine.deal import SeedStream, first_seat
from tests.engine.builders import document, legal, position

# ------------------------------------------------------------------ the sorted packs

#: pp.19-20, the order in which the cards are taken off the suit piles: after the pile
#: is turned face down the first card is on top, so it is dealt first.
RED_PACK = (
    "8S 2C QS AC JC 3D 7D 9C 4C 4H TD 2D 3C 7H 6C AS "
    "6D 8C 9S 5C 7S 6S 3S 7C AD 5S JH 2S KS 5H KC KH"
)
BLUE_PACK = "TS 9H TC JD 3D 2S 4D AD 9D QS 8D KH KD 2D 5D 6S 3C 9S QC 4S KS QH JC 6H"

#: pp.19-20, the suit piles as printed, bottom card first.
RED_SUIT_PILES = {"H": "K5J74", "C": "K7586349JA2", "D": "A62T73", "S": "K253679AQ8"}
BLUE_SUIT_PILES = {"H": "6QK9", "C": "JQ3T", "D": "52K89A43J", "S": "K496Q2T"}


def _deal(pack: str) -> tuple[str, list[str], str]:
    """pp.3-4, 21-22: 12 to the stock one at a time (the first ends at the bottom),
    4 face up to the tableau, the rest to the hand as they lie (the next card on top).
    Returns (reserve bottom to top, tableau cards, hand bottom to top)."""
    cards = pack.split()
    return " ".join(cards[:12]), cards[12:16], " ".join(reversed(cards[16:]))


RED_RESERVE, RED_TABLEAU, RED_HAND = _deal(RED_PACK)
BLUE_RESERVE, BLUE_TABLEAU, BLUE_HAND = _deal(BLUE_PACK)

# ------------------------------------------------------------------ the diagrams

DIAGRAM_1: dict[str, Any] = {
    "to_move": "A",
    "H": {i + 1: card for i, card in enumerate(RED_TABLEAU + BLUE_TABLEAU)},
    "A": {"reserve": RED_RESERVE, "hand": RED_HAND},
    "B": {"reserve": BLUE_RESERVE, "hand": BLUE_HAND},
}

#: After red's first turn (p.26). Spaces filled left to right: 2D H3, TD H4, 4H H6, 7D H7.
DIAGRAM_3: dict[str, Any] = {
    "to_move": "B",
    "F": {1: "AS"},
    "H": {1: "3C 2D", 2: "7H 6C", 3: "2D", 4: "TD 9C", 5: "KD", 6: "4H", 7: "7D", 8: "6S 5D 4C 3D"},
    "A": {"reserve": "8S 2C QS AC JC", "hand": RED_HAND.rsplit(" ", 1)[0], "waste": "6D"},
    "B": {"reserve": BLUE_RESERVE, "hand": BLUE_HAND},
}

#: After blue's first turn (p.34). The TS went to H1, the 3C from the hand to H3.
DIAGRAM_4: dict[str, Any] = {
    "to_move": "A",
    "F": {1: "AS 2S", 2: "AD 2D 3D 4D"},
    "H": {
        1: "TS",
        2: "7H 6C",
        3: "3C",
        4: "TD 9C",
        5: "KD",
        6: "4H 3C 2D",
        7: "KH QS JD TC 9H",
        8: "6S 5D 4C 3D",
    },
    "A": {"reserve": "8S 2C QS AC JC", "hand": DIAGRAM_3["A"]["hand"], "waste": "6D 7D 8D 9D"},
    "B": {"hand": "6H JC QH KS 4S QC", "waste": "9S"},
}

#: After red's second turn (p.42), all 16 sorted red hand cards used.
DIAGRAM_5: dict[str, Any] = {
    "to_move": "B",
    "F": {
        1: "AS 2S 3S",
        2: "AD 2D 3D 4D 5D 6D 7D 8D 9D TD JD",
        3: "AC 2C 3C 4C 5C 6C 7C 8C 9C TC JC",
        4: "AD 2D 3D",
    },
    "H": {1: "2S", 2: "9H", 3: "7H 6S 5H", 4: "KS", 5: "KD QS", 6: "4H 3C", 7: "KH QS JH", 8: "KC"},
    "A": {"waste": "KH"},
    "B": {"hand": "6H JC QH KS 4S QC", "waste": "9S TS 9S 8S 7S 6S 5S"},
}

#: After blue's second turn (p.45), Foster's way (his own waste released by the 4S).
#: Which king of spades the QH goes on is not said; H8's here.
DIAGRAM_6: dict[str, Any] = {
    "to_move": "A",
    "F": {
        1: "AS 2S 3S 4S 5S 6S 7S 8S 9S TS",
        2: DIAGRAM_5["F"][2],
        3: DIAGRAM_5["F"][3] + " QC KC",
        4: "AD 2D 3D",
    },
    "H": {**DIAGRAM_5["H"], 8: "KS QH JC"},
    "A": {"waste": "KH"},
    "B": {"waste": "9S 6H"},
}

# ------------------------------------------------------------------ the play, in turns

RED_1_TABLEAU = "H4-F1 H3-H2 H7-H8 H6-H1"  # pp.22-25: the SA, then 6C-7H, 5D-6S, 2D-3C
RED_1_STOCK = "R-H3 R-H4 R-H6 R-H8 R-H4 R-H7 R-H8"  # pp.25-26: 2D TD 4H 4C 9C 7D 3D
RED_1_HAND = "T C-W"  # p.26: the 6D stops him
BLUE_1_OPENING = "H7-OW R-H7 R-H4 R-H7 H4-OW R-OW"  # pp.29-30: 7D, KH, 8D, QS, 8D, 9D
BLUE_1_DIAMONDS = "R-F2 H1-F2 H8-F2 R-F2 R-F1"  # p.30 (DA 2D 3D) + p.31 (4D 2S), P1 order
BLUE_1_SPACES = "H1-H6 H3-H6"  # p.30: 3C on 4H, and the red 2D after it (inferred)
BLUE_1_STOCK = "R-H8 R-H7 R-H7 R-H7 R-H1"  # p.31: 3D, JD, TC, 9H; TS into a space
BLUE_1_HAND = "T C-H3 T C-W"  # p.34: 3C fills the last space, 9S stops him

RED_2_OPENING = "H1-OW R-H1 R-F3 R-H5 R-F3 H3-F3"  # p.34-35: TS, JC, AC, QS, 2C, 3C
RED_2_SEPARATE = "R-H7 H2-H3 H2-H7 H3-H7 H4-H2 H4-H1 H2-H1"  # p.38: 8S, 7H/6C, TD/9C
RED_2_DIG = "H7-H2 H7-H3 H7-H4 H2-H3 H7-H2 H4-H2 H3-H4 H3-H2 H4-H2"  # p.38: the 9H out
#: pp.39-42, the rest of red's turn. "!" marks a Foster-only play (pagat: S5) done by hand.
RED_2_REST = (
    "!W-H7 !W-H1 "  # p.39: his own 9D on the TC, 8D on the 9C
    "H8-H3 H8-F3 H8-F2 "  # p.39: lift the 3D; 4C and 5D go up
    "T C-H7 !W-H7 !W-F2 H7-F2 H1-F2 H7-H4 H7-F2 "  # p.39: 8C; his 7D on it, diamonds to 9
    "T C-OW T C-F3 H2-F3 H2-H4 H2-OW H2-H7 "  # pp.39-40: 9S loaded; 5C, 6C; 7H, 8S, 9H
    "T C-OW H8-OW "  # p.40: 7S and 6S loaded, two spaces
    "H7-H2 H7-H8 H2-H8 H1-H2 H1-F2 H7-F2 "  # pp.40-41: TC/9H moved, diamonds to the jack
    "T C-H4 T C-F1 T C-F3 T C-F4 H6-F4 H3-F4 "  # p.41: 6S, 3S, 7C, AD built to the trey
    "T C-OW H4-OW H4-H3 H4-F3 H2-F3 H8-H2 H8-F3 H1-F3 "  # p.41: 5S, 6S; clubs to the jack
    "T C-H7 T C-H1 T C-H4 T !OW-H3 C-H3 "  # p.42: JH, 2S, KS; 6S taken back for the 5H
    "T C-H8 T C-W"  # p.42: KC into a space, KH discarded
)
BLUE_2_CLUBS = "T C-F3 H8-F3 T C-F1"  # pp.42-45: QC, KC closes clubs; 4S
BLUE_2_RELEASE = "!W-F1 !W-F1 !W-F1 !W-F1 !W-F1 !W-F1"  # p.45: his own 5S..TS go up
BLUE_2_END = "T C-H8 T C-H8 T C-H8 T C-W"  # p.45: KS to the space, QH, JC; 6H stops


def _by_hand(pos: Position, move: str) -> Position:
    """A play Foster makes that pagat forbids: check that the engine refuses it with S5
    (an unavailable card), then carry it out on the position document."""
    refusal = pos.refusal(pos.parse(move))
    assert refusal is not None and refusal.code == "S5", (move, refusal)
    doc = to_document(pos)
    del doc["engine"]["packs"]  # pack identity plays no part (R1.1)
    me = doc["to_move"]
    them = "B" if me == "A" else "A"
    src, dst = move.split("-")
    card = doc[me if src == "W" else them]["waste"].pop()
    pile = "foundations" if dst[0] == "F" else "houses"
    target = doc[pile][int(dst[1:]) - 1]
    if pile == "houses":  # Foster's building rule; and a discard never fills a space
        assert target, move
        below, above = parse_card(target[-1]), parse_card(card)
        assert rank_of(above) + 1 == rank_of(below) and is_red(above) != is_red(below), move
    target.append(card)
    return from_document(doc)  # refuses a foundation not built up in suit


def follow(pos: Position, script: str) -> Position:
    for move in script.split():
        if move.startswith("!"):
            pos = _by_hand(pos, move[1:])
        else:
            pos.play(move)
    return pos


def diagram(kwargs: dict[str, Any]) -> Position:
    return position(**kwargs)


def assert_layout(pos: Position, kwargs: dict[str, Any]) -> None:
    got, want = to_document(pos), document(**kwargs)
    for key in ("to_move", "foundations", "houses", "A", "B"):
        assert got[key] == want[key], key


def code(pos: Position, move: str) -> str | None:
    refusal = pos.refusal(pos.parse(move))
    return None if refusal is None else refusal.code


def all_cards(pos: Position) -> Counter[str]:
    doc = to_document(pos)
    names = [c for pile in doc["foundations"] + doc["houses"] for c in pile]
    for seat in ("A", "B"):
        names += [c for k in ("reserve", "hand", "waste") for c in doc[seat][k]]
        names += [doc[seat]["turned"]] if doc[seat]["turned"] else []
    return Counter(names)


# ------------------------------------------------------------------ Diagram 1: the deal


def test_reconstructed_packs_match_foster_suit_piles() -> None:
    """pp.19-20: read back per suit, the take-off orders give the printed suit piles."""
    for pack, piles in ((RED_PACK, RED_SUIT_PILES), (BLUE_PACK, BLUE_SUIT_PILES)):
        cards = pack.split()
        for suit, ranks in piles.items():
            assert "".join(c[0] for c in reversed(cards) if c[1] == suit) == ranks


def test_deal_gives_the_tableau_and_tops_foster_names() -> None:
    """pp.21-22, 25: red tableau 3C 7H 6C AS, blue KD 2D 5D 6S; red stock top 2D, red
    hand top 6D; blue stock top KH, blue hand top 3C."""
    assert RED_TABLEAU == ["3C", "7H", "6C", "AS"]
    assert BLUE_TABLEAU == ["KD", "2D", "5D", "6S"]
    doc = to_document(diagram(DIAGRAM_1))
    assert [len(doc["A"][k]) for k in ("reserve", "hand")] == [12, 16]
    assert [len(doc["B"][k]) for k in ("reserve", "hand")] == [12, 8]
    assert doc["A"]["reserve"][-1] == "2D" and doc["A"]["hand"][-1] == "6D"
    assert doc["B"]["reserve"][-1] == "KH" and doc["B"]["hand"][-1] == "3C"
    assert doc["houses"] == [["3C"], ["7H"], ["6C"], ["AS"], ["KD"], ["2D"], ["5D"], ["6S"]]


def test_R3_1_red_starts_by_pagat_rule_too() -> None:
    """Foster's red starts by winning the cut (p.22); pagat's lower reserve top gives the
    same seat: 2D (A) against KH (B)."""
    assert first_seat(diagram(DIAGRAM_1), SeedStream(0)) == 0


def test_P2_ace_of_spades_goes_up_before_anything_else() -> None:
    """p.25: the SA must go to a foundation before another card is touched."""
    pos = diagram(DIAGRAM_1)
    assert legal(pos) == [f"H4-F{i}" for i in range(1, 9)]
    # Foster's optional moves, the reserve 2D on the 3C (pagat: visible), and a turn.
    for move in ("H3-H2", "H7-H8", "H6-H1", "R-H1", "T"):
        assert code(pos, move) == "S2", move


def test_the_three_optional_tableau_moves_are_legal() -> None:
    """p.25 (Diagram 2): after the SA, red makes the three optional moves, 6C on 7H,
    5D on 6S and 2D on 3C. The text does not name them; the layout offers nothing else
    but the 6S instead of the 6C onto the 7H, or the 5D onto the 6C, and p.38 (red later
    moves the 7H-6C pair, nothing on it) settles both choices."""
    pos = diagram(DIAGRAM_1)
    pos.play("H4-F1")
    for move in RED_1_TABLEAU.split()[1:]:
        assert code(pos, move) is None, move
        pos.play(move)
    doc = to_document(pos)
    assert [i + 1 for i, pile in enumerate(doc["houses"]) if not pile] == [3, 4, 6, 7]
    assert doc["houses"][1] == ["7H", "6C"]
    assert doc["houses"][7] == ["6S", "5D"]
    assert doc["houses"][0] == ["3C", "2D"]


def test_P3_the_stock_2D_fits_nowhere_and_must_fill_a_space() -> None:
    """pp.25-26 (agrees with P3): the 2D fits no card, so it goes into a space; red may
    not turn a hand card while spaces are open and the reserve is not empty."""
    pos = follow(diagram(DIAGRAM_1), RED_1_TABLEAU)
    assert [m for m in legal(pos) if m.startswith("R-")] == ["R-H3", "R-H4", "R-H6", "R-H7"]
    assert code(pos, "T") == "S3"


def test_red_first_turn_stock_plays_and_the_stop() -> None:
    """pp.25-26: 2D, TD, 4H into spaces; 4C on 5D, 9C on TD; 7D fills the last space;
    3D on 4C; the JC fits nowhere; the hand's 6D fits nowhere and is discarded."""
    pos = follow(diagram(DIAGRAM_1), RED_1_TABLEAU)
    for move in RED_1_STOCK.split():
        assert code(pos, move) is None, move
        pos.play(move)
    assert to_document(pos)["A"]["reserve"][-1] == "JC"
    assert not [m for m in legal(pos) if m.startswith("R-")]
    assert code(pos, "T") is None  # no space left
    pos.play("T")
    assert [m for m in legal(pos) if m.startswith("C-")] == ["C-W"]
    pos.play("C-W")
    assert_layout(pos, DIAGRAM_3)


# ------------------------------------------------------------------ Diagram 3: blue's turn


def test_blue_loads_7D_on_red_discard_but_cannot_take_it_back() -> None:
    """p.29: the 7D goes on red's 6D, making a space. Foster adds that blue may take it
    back while it is uncovered (V14); pagat never lets a card leave the opponent's
    waste (R4.2, R5.5): S5."""
    pos = diagram(DIAGRAM_3)
    assert code(pos, "H7-OW") is None
    pos.play("H7-OW")
    assert to_document(pos)["A"]["waste"] == ["6D", "7D"]
    assert code(pos, "OW-H7") == "S5"


def test_blue_stock_KH_8D_on_9C_and_QS() -> None:
    """p.29: KH into the space, the 8 goes on the 9 (8D on 9C), QS on KH."""
    pos = follow(diagram(DIAGRAM_3), "H7-OW")
    for move, card in (("R-H7", "KH"), ("R-H4", "8D"), ("R-H7", "QS")):
        assert to_document(pos)["B"]["reserve"][-1] == card
        assert code(pos, move) is None, move
        pos.play(move)
    assert to_document(pos)["houses"][6] == ["KH", "QS"]
    assert to_document(pos)["B"]["reserve"][-1] == "9D"


def test_blue_runs_red_discard_up_to_the_nine() -> None:
    """pp.29-30: the 8D comes back off the 9C and the 9D off the stock, both onto red's
    discard. Under Foster's own p.9 rule a tableau card may load the opponent only
    before the mover plays his own cards, which blue already has; pagat has no such
    limit (R4.1, R5.4)."""
    pos = follow(diagram(DIAGRAM_3), BLUE_1_OPENING)
    assert to_document(pos)["A"]["waste"] == ["6D", "7D", "8D", "9D"]
    assert to_document(pos)["houses"][3] == ["TD", "9C"]


def test_P1_blue_stock_ace_of_diamonds_first() -> None:
    """p.30: the DA off the stock must go up at once (P1): only R-F moves, others S1."""
    pos = follow(diagram(DIAGRAM_3), BLUE_1_OPENING)
    assert legal(pos) == [f"R-F{i}" for i in range(2, 9)]  # F1 holds the spades
    assert code(pos, "T") == "S1"


def test_P2_deuce_and_trey_of_diamonds_before_another_card() -> None:
    """p.30: the 2D and 3D must follow the DA before anything else is touched."""
    pos = follow(diagram(DIAGRAM_3), BLUE_1_OPENING + " R-F2")
    assert legal(pos) == ["H1-F2", "H3-F2"]  # either deuce; Foster uses the one on the 3C
    assert code(pos, "T") == "S2"
    pos.play("H1-F2")
    assert legal(pos) == ["H8-F2"]
    assert code(pos, "H1-H6") == "S2"


def test_P1_pagat_sees_the_4D_before_the_3C_moves() -> None:
    """p.30 moves the 3C onto the 4H before the 4D is turned from the face-down stock.
    In pagat the 4D is the face-up reserve top and fits: P1 makes it (and then the 2S)
    go up first (S1 otherwise); after that the 3C move and the 2D onto it are legal."""
    pos = follow(diagram(DIAGRAM_3), BLUE_1_OPENING + " R-F2 H1-F2 H8-F2")
    assert code(pos, "H1-H6") == "S1"
    assert legal(pos) == ["R-F2"]
    pos.play("R-F2")
    assert legal(pos) == ["R-F1"]  # the 2S on the SA
    pos.play("R-F1")
    for move in BLUE_1_SPACES.split():
        assert code(pos, move) is None, move
        pos.play(move)
    doc = to_document(pos)
    assert doc["houses"][5] == ["4H", "3C", "2D"]
    assert [i + 1 for i, pile in enumerate(doc["houses"]) if not pile] == [1, 3]
    assert doc["foundations"][:2] == [["AS", "2S"], ["AD", "2D", "3D", "4D"]]


def test_R6_1_buried_5D_is_not_compulsory() -> None:
    """p.31: 3D on 4C, JD on QS, TC on JD, 9H on TC; the TS then fills a space. The 5D
    under 4C-3D would fit the diamonds, but while buried it need not be dug out
    (R6.1). If blue does use the spaces to uncover it, as Foster says he might, it
    becomes compulsory at once (P2)."""
    pos = follow(diagram(DIAGRAM_3), BLUE_1_OPENING + " " + BLUE_1_DIAMONDS + " " + BLUE_1_SPACES)
    for move in BLUE_1_STOCK.split()[:-1]:
        assert code(pos, move) is None, move
        pos.play(move)
    assert to_document(pos)["houses"][6] == ["KH", "QS", "JD", "TC", "9H"]
    assert not [m for m in legal(pos) if "-F" in m]
    assert code(pos, "R-H1") is None
    pos.play("H8-H1")
    pos.play("H8-H3")
    assert legal(pos) == ["H8-F2"]
    assert code(pos, "T") == "S2"


def test_blue_hand_3C_fills_last_space_then_9S_stops() -> None:
    """p.34: stock exhausted, the hand's 3C fills the last space (a hand card may fill a
    space in both rule sets); the 9S fits nowhere and starts blue's discard."""
    pos = follow(
        diagram(DIAGRAM_3),
        " ".join((BLUE_1_OPENING, BLUE_1_DIAMONDS, BLUE_1_SPACES, BLUE_1_STOCK)),
    )
    assert to_document(pos)["B"]["reserve"] == []
    assert code(pos, "T") is None  # a space is open, but the reserve is empty (P3)
    pos.play("T")
    assert code(pos, "C-H3") is None
    pos.play("C-H3")
    pos.play("T")
    assert [m for m in legal(pos) if m.startswith("C-")] == ["C-W"]
    pos.play("C-W")
    assert_layout(pos, DIAGRAM_4)


def test_whole_first_round_from_the_deal_reaches_diagram_4() -> None:
    pos = follow(
        diagram(DIAGRAM_1),
        " ".join(
            (
                RED_1_TABLEAU,
                RED_1_STOCK,
                RED_1_HAND,
                BLUE_1_OPENING,
                BLUE_1_DIAMONDS,
                BLUE_1_SPACES,
                BLUE_1_STOCK,
                BLUE_1_HAND,
            )
        ),
    )
    assert_layout(pos, DIAGRAM_4)


# ------------------------------------------------------------------ Diagram 4: red's turn


def test_red_loads_TS_and_runs_the_clubs_from_the_stock() -> None:
    """pp.34-35: the TS goes on blue's 9S, the JC into that space; the stock's AC (P1),
    QS, 2C (P1) follow, and the 3C must go up (P2), opening a space."""
    pos = diagram(DIAGRAM_4)
    assert code(pos, "H1-OW") is None
    pos.play("H1-OW")
    pos.play("R-H1")
    assert legal(pos) == [f"R-F{i}" for i in range(3, 9)]
    pos.play("R-F3")
    assert [m for m in legal(pos) if m.startswith("R-")] == ["R-H5"]  # QS: only on the KD
    pos.play("R-H5")
    assert legal(pos) == ["R-F3"]
    pos.play("R-F3")
    assert legal(pos) == ["H3-F3"]
    pos.play("H3-F3")
    assert to_document(pos)["foundations"][2] == ["AC", "2C", "3C"]
    assert to_document(pos)["houses"][2] == []


def test_discard_cards_cannot_fill_the_space_but_the_stock_8S_can() -> None:
    """p.35: red may not put blue's TS-9S into the space (Foster: discards never fill
    spaces; pagat: the opponent's waste is never available, S5); the stock's 8S may go
    there or, better, on the 9H."""
    pos = follow(diagram(DIAGRAM_4), RED_2_OPENING)
    assert code(pos, "OW-H3") == "S5"
    assert code(pos, "R-H3") is None
    assert code(pos, "R-H7") is None


def test_R5_3_two_cards_move_only_through_a_space() -> None:
    """p.38: the 7H-6C pair joins the 8S one card at a time through the space; the 6C
    cannot go on the 8S itself (S4), so the pair cannot move as one. The TD-9C pair is
    moved onto the JC the same way, leaving three spaces."""
    pos = follow(diagram(DIAGRAM_4), RED_2_OPENING + " R-H7")
    assert code(pos, "H2-H7") == "S4"
    for move in RED_2_SEPARATE.split()[1:]:
        assert code(pos, move) is None, move
        pos.play(move)
    doc = to_document(pos)
    assert doc["houses"][6] == ["KH", "QS", "JD", "TC", "9H", "8S", "7H", "6C"]
    assert doc["houses"][0] == ["JC", "TD", "9C"]
    assert [i + 1 for i, pile in enumerate(doc["houses"]) if not pile] == [2, 3, 4]


def test_digging_out_the_9H_then_own_discard_is_refused() -> None:
    """p.38: with three spaces red lifts 6C, 7H, 8S, puts the 9H in a space and rebuilds
    8S-7H-6C on it: all legal. Foster then plays the 9D from red's own discard onto the
    TC; pagat's own waste is not available (R4.2; V1 off): S5."""
    pos = follow(diagram(DIAGRAM_4), RED_2_OPENING + " " + RED_2_SEPARATE)
    for move in RED_2_DIG.split():
        assert code(pos, move) is None, move
        pos.play(move)
    doc = to_document(pos)
    assert doc["houses"][1] == ["9H", "8S", "7H", "6C"]
    assert doc["houses"][6] == ["KH", "QS", "JD", "TC"]
    assert doc["A"]["waste"][-1] == "9D"
    assert code(pos, "W-H7") == "S5"


def test_red_second_turn_reaches_diagram_5() -> None:
    """pp.38-42, with Foster's four own-discard plays and his taking back of the 6S done
    by hand (each first refused by the engine with S5); every other play, the
    compulsory foundation runs (clubs to the jack, diamonds to the jack, red's own DA
    to the trey, the 3S) included, is accepted by the engine."""
    pos = follow(
        diagram(DIAGRAM_4), " ".join((RED_2_OPENING, RED_2_SEPARATE, RED_2_DIG, RED_2_REST))
    )
    assert_layout(pos, DIAGRAM_5)
    assert all_cards(pos) == all_cards(diagram(DIAGRAM_1))  # the 56 sorted cards


def test_P2_uncovered_diamonds_and_clubs_go_up_at_once() -> None:
    """p.39: lifting the 3D into a space uncovers the 4C (clubs at 3), then the 5D
    (diamonds at 4): each must go up before anything else."""
    pos = follow(
        diagram(DIAGRAM_4), " ".join((RED_2_OPENING, RED_2_SEPARATE, RED_2_DIG, "!W-H7 !W-H1"))
    )
    pos.play("H8-H3")
    assert legal(pos) == ["H8-F3"]
    pos.play("H8-F3")
    assert legal(pos) == ["H8-F2"]
    assert code(pos, "T") == "S2"


# ------------------------------------------------------------------ Diagram 5: blue's turn


def test_diagram_5_blue_must_turn_a_card() -> None:
    """p.42: no foundation or loading play exists for blue, and his discard top (5S)
    cannot be played (pagat: never available), so he turns from his hand."""
    pos = diagram(DIAGRAM_5)
    moves = legal(pos)
    assert "T" in moves
    assert not [m for m in moves if "-F" in m or "-O" in m or m.startswith("W-")]
    assert code(pos, "W-F1") == "S5"


def test_P2_queen_then_king_of_clubs_close_the_suit() -> None:
    """pp.42-45: the QC goes on the clubs, then the KC from its space completes them
    (both compulsory); the 4S then goes on the spades."""
    pos = diagram(DIAGRAM_5)
    pos.play("T")
    assert legal(pos) == ["C-F3"]
    pos.play("C-F3")
    assert legal(pos) == ["H8-F3"]
    assert code(pos, "T") == "S2"
    pos.play("H8-F3")
    assert to_document(pos)["houses"][7] == []
    pos.play("T")
    assert legal(pos) == ["C-F1"]
    pos.play("C-F1")
    assert code(pos, "H1-F1") == "S4"  # the 2S in H1 has no foundation to go on


def test_4S_does_not_release_blue_discard_under_pagat() -> None:
    """p.45: in Foster the 4S frees blue's whole discard pile (5S-TS go up). Pagat keeps
    them there (own waste unavailable, S5); blue plays on: KS to the space, QH and JC on
    it, and the 6H is discarded on top of the spades."""
    pos = follow(diagram(DIAGRAM_5), BLUE_2_CLUBS)
    assert code(pos, "W-F1") == "S5"
    pos = follow(pos, BLUE_2_END)
    doc = to_document(pos)
    assert doc["to_move"] == "A"
    assert doc["B"]["waste"] == ["9S", "TS", "9S", "8S", "7S", "6S", "5S", "6H"]
    assert doc["houses"][7] == ["KS", "QH", "JC"]


def test_blue_second_turn_reaches_diagram_6() -> None:
    """pp.42-45, with Foster's release of 5S-TS from blue's own discard done by hand:
    the layout of Diagram 6, red to play."""
    pos = follow(diagram(DIAGRAM_5), " ".join((BLUE_2_CLUBS, BLUE_2_RELEASE, BLUE_2_END)))
    assert_layout(pos, DIAGRAM_6)


# ------------------------------------------------------------------ misplaced cards


def test_p13_misplacements_are_refused() -> None:
    """p.13 names a red seven on a red eight and a black eight on a red eight as
    wrongly placed cards: S4 (R5.2). A red seven on a black eight is fine."""
    pos = position(H={1: "7H", 2: "8D", 3: "8S"}, A={"reserve": "KC", "hand": "2C"})
    assert code(pos, "H1-H2") == "S4"
    assert code(pos, "H3-H2") == "S4"
    assert code(pos, "H1-H3") is None
