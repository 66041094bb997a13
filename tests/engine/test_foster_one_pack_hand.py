"""Foster's illustrative one-pack hand (Foster's Russian Bank, 2nd ed. 1922, pp.66-80),
replayed move by move under the ``foster-one-pack`` preset (RULES.md G4).

Source: ``/work/shared/seeds/001_3dac3f95c419216d.txt`` (OCR; page numbers below are
the book's). The pages that give the rules of the one-pack game are missing from the
scan; the preset's rules are rebuilt from this hand, and ``docs/variants.md`` (G4)
lists each rule with the pages it rests on. Here the two hands are dealt as a
position document, every play Foster describes is put to the engine (each must be
legal under the preset), and the layout is checked at the points his text allows.

Seats and terms
---------------
* The non-dealer, who plays first (p.67), is seat ``A``; the dealer is ``B``.
* Foster's "hand" is our hand, his "discard pile" our waste, a "space" an empty
  house, the "tableau" the houses. There is no stock (reserve) and there are no
  foundations: each player holds 26 cards and turns up the top four of his hand as
  his part of the tableau (p.67, the non-dealer; p.68, the dealer). The non-dealer's
  four are ``H1..H4`` in the order turned, the dealer's ``H5..H8``. The engine lays
  out both rows at the deal; Foster's dealer turns his at his own first turn, which
  changes nothing in this hand (the non-dealer's first turn never touches them).

Reconstruction of the two hands
-------------------------------
The reader is told to sort the cards into two piles and turn each face down, the
first card listed on top (p.67: each card is laid on the one before, and the packet
is then turned over). The OCR garbles the suit symbols (a club can read ``c£``, ``<£>``,
``*`` or ``#``; a spade ``<$>``, ``<£``, ``£`` or ``4>``), so the suits are settled by
the play, where one pack leaves a single card of each name:

* The dealer's list survives only for its last 14 cards (the end of p.66, which the
  scan runs on after p.47): ``DEALER_LIST_AS_SCANNED``. Its first 12 cards are read
  from the play on pp.68-71, the diamonds 3, 4, 2 from p.77, where they come back
  off the dealer's discard pile, the 2♦ first, then the 4♦ and the 3♦.
* The non-dealer's list (p.67) has 19 entries where 26 are needed. The play names
  the 7 lost between the ``KC`` and the ``7C``: ``6C``, ``TS``, ``JH``, ``9S`` (pp.72-73)
  and, by elimination, ``4S``, ``3H``, ``9H``, the only cards of the pack the text never
  names. Two aces are decided by the play: the one that fills the first space is the
  ``AC`` (the ``2S`` turned next, p.71, would otherwise have gone on it, and on
  pp.72-73 the ``KC`` goes on an ace), so the ace discarded on p.72 is the ``AS``.

Moves the text does not give (each marked ``~`` in the scripts)
----------------------------------------------------------------
* Between the non-dealer's turn with the ``KC`` (pp.72-73) and the dealer's ``3C``: the
  dealer turns the ``5S`` (next in his list) and can only discard it; the non-dealer
  loads the ``4S`` on it, plays the ``3H`` on the ``4H`` and discards the ``9H``. Both
  spades must be in the dealer's discard pile under the ``QD`` for p.77 (he plays
  them from it onto the 3♠), and the ``4S`` is the non-dealer's.
* In the non-dealer's long turn (pp.73-75): the ``2H AH`` go onto the ``3H``, the
  ``9H`` from his discard pile into the space, and the hearts onto it (on p.77 the
  10♥ completes the suit, so every heart must lie in one pile); the ``AS`` from his
  discard pile goes into a space before the ``JS`` under it is loaded (p.74), and
  the 2♠ goes on it on p.75.
* Cards put *under* a sequence (pp.76-77: the 2♣ under the 3♣, the A♣ and K♣ under
  the 2♣, the J♠ and Q♠ under the 10♠, the 7♦ under the 6♦): the card goes into a
  space and the sequence is moved onto it, as Foster's remark on p.77 implies (the
  K♦ could get under the Q♦ only with the help of a space). Which space a card goes
  to is mostly not said; the choice is noted at the move.
"""

from __future__ import annotations

import re
from typing import Any

from games.engine import Position, from_document, to_document
from games.engine.cards import full_pack, parse_card

# ------------------------------------------------------------------ the two hands


def _cards(text: str) -> list[str]:
    return text.split()


#: The order in which each player turns his cards, first card first (p.67).
NON_DEALER = _cards("2H 8C 6D 9C AC TC KS 2S QH 4C 7H JD JS AS KC 6C 4S 3H 9H TS JH 9S 7C 3S 7S KD")
DEALER = _cards("6H 5C 8S 5H 8H AH 6S 3D 4D 2D TD 9D QC TH 4H 5D 7D 5S 3C QD QS JC 2C KH AD 8D")

#: p.66 (the end of the dealer's list) and p.67 (the non-dealer's), as the OCR gives
#: them, and as decoded here.
DEALER_LIST_AS_SCANNED = "Q, S?10,S?4, 05, 07, £5, #3, OQ, 4>Q, *J, *2,S?K, 0A,08"
DEALER_LIST_DECODED = _cards("QC TH 4H 5D 7D 5S 3C QD QS JC 2C KH AD 8D")
NON_DEALER_LIST_AS_SCANNED = (
    "S?2, *8. 06, c£9, <$>A, c£10, <$K f <£2, S?Q,*4, S?7, 0J,^J, <£A, c§>K, 7, £3, ♦7, OK"
)
NON_DEALER_LIST_DECODED = _cards("2H 8C 6D 9C AC TC KS 2S QH 4C 7H JD JS AS KC 7C 3S 7S KD")
#: The entries the OCR lost from the non-dealer's list, between the KC and the 7C.
NON_DEALER_LOST = _cards("6C 4S 3H 9H TS JH 9S")


def deal_document() -> dict[str, Any]:
    """pp.67-68: each player's first four cards turned up as his houses, the rest of his
    26 face down as his hand (the next card to turn on top)."""
    return {
        "format": "rbank-position/1",
        "rules": "foster-one-pack",
        "to_move": "A",
        "foundations": [],
        "houses": [[card] for card in NON_DEALER[:4] + DEALER[:4]],
        "A": {"reserve": [], "hand": NON_DEALER[4:][::-1], "waste": [], "turned": None},
        "B": {"reserve": [], "hand": DEALER[4:][::-1], "waste": [], "turned": None},
        "status": "playing",
        "winner": None,
        "score": None,
    }


# ------------------------------------------------------------------ the play, turn by turn

#: Each entry: (who, pages, moves). "~" marks a move the text does not give (see above).
TURNS: list[tuple[str, str, str]] = [
    # p.67: the 8C on the 9C makes a space; the AC fills it; the TC cannot be played.
    ("A", "p.67", "H2-H4 T C-H2 T C-W"),
    # p.68: the 5H on the 6H; the 8H fills the space; the AH on the 2H; the 6S stops him.
    ("B", "p.68", "H8-H5 T C-H8 T C-H1 T C-W"),
    ("A", "p.68", "T C-W"),  # the KS
    ("B", "p.68", "T C-W"),  # the 3D
    ("A", "p.71", "T C-W"),  # the 2S
    ("B", "p.71", "T C-W"),  # the 4D
    ("A", "p.71", "T C-W"),  # the QH
    ("B", "p.71", "T C-W"),  # the 2D
    # p.71: the 4C on the 5C, the 7H on the 8H, the 6H-5H onto the 7H; the space must be
    # filled from his discards (the QH) before he turns the JD, which he discards.
    ("A", "p.71", "T C-H6 T C-H8 H5-H8 W-H5 T C-W"),
    # p.71: the TD and the 9D loaded on the non-dealer's JD; the QC discarded.
    ("B", "p.71", "T C-OW T C-OW T C-W"),
    ("A", "p.71", "T C-W"),  # the JS
    ("B", "p.72", "T C-W"),  # the TH
    ("A", "p.72", "T C-W"),  # the AS
    # p.72: the 4H on the 5H, the 5D on the 6D; the 7D discarded.
    ("B", "p.72", "T C-H8 T C-H3 T C-W"),
    # pp.72-73 (p.73's header is lost in the scan): the KC on the AC; the 6C discarded.
    ("A", "pp.72-73", "T C-H2 T C-W"),
    # Not in the text: the 5S, the 4S loaded on it, the 3H on the 4H, the 9H discarded.
    ("B", "inferred", "~T ~C-W"),
    ("A", "inferred", "~T ~C-OW ~T ~C-H8 ~T ~C-W"),
    # p.73: the 3C on the 4C; the QD discarded.
    ("B", "p.73", "T C-H6 T C-W"),
    ("A", "p.73", "T C-W"),  # the TS
    ("B", "p.73", "T C-W"),  # the QS
    # pp.73-75, the non-dealer's long turn.
    (
        "A",
        "pp.73-75",
        "T C-H5 "  # the JH on the QH
        "T C-H7 W-H7 "  # the 9S on the 8S, freeing the TS from his discards
        "T C-H4 "  # the 7C on the 8C
        "~H1-H8 ~W-H1 ~H8-H1 "  # the hearts together: 2H-AH on the 3H, all onto the 9H
        "W-H4 H6-H4 "  # the 6C from his discards, then the 5C-4C-3C: a space
        "~W-H6 "  # the AS off his discards into a space
        "W-OW "  # p.74: the JS on the dealer's QS
        "H7-H8 H7-H8 H7-H8 "  # the spades reversed into the space: the 8S on top
        "H4-H7 H4-H7 H4-H7 H4-H7 H4-H7 H4-H7 H4-H7 "  # the clubs reversed: the 9C on top
        "W-H4 W-H4 W-H4 "  # p.75: the 9D into the space, the TD and JD on it
        "W-H6 "  # the 2S on the AS
        "T C-H6 T C-H8 T C-W",  # the 3S on the 2S, the 7S on the 8S, the KD discarded
    ),
    ("B", "p.75", "T C-W"),  # the JC
    # p.75: his discards become his hand; the TC on the 9C; the KS discarded.
    ("A", "pp.75-76", "T C-H7 T C-W"),
    ("B", "p.76", "W-H7 T C-W"),  # the JC on the TC; the 2C discarded
    ("A", "p.76", "T C-W"),  # the KD
    # pp.76-78: the dealer's last turn.
    (
        "B",
        "pp.76-78",
        "T C-H1 H5-H1 "  # the KH on the AH, the QH-JH onto it: a space
        "W-H5 H7-H5 "  # the 2C "under the trey": into the space, the clubs onto it
        "H2-H7 H5-H2 H2-H7 "  # the AC and KC "under the deuce", by the space: two spaces
        "W-H2 H8-H2 W-H8 H2-H8 "  # the JS and QS "under the ten", the same way
        "W-H4 H4-H5 H4-H5 H4-H5 H4-H5 "  # the QD on the JD; reversed: the 9D on top
        "W-H6 W-H6 "  # p.77: the 4S and 5S on the 3S
        "W-H2 H3-H2 "  # the 7D "under the 6": into a space, the 6D-5D onto it
        "W-H1 "  # the TH on the JH completes the hearts
        "W-H7 "  # the QC on the JC (the clubs are complete too)
        "W-H3 W-H2 W-H2 H3-H2 "  # the 2D in a space; the 4D, 3D and 2D on the 5D
        "W-H8 "  # the 6S on the 7S: his discards are gone
        "T C-OW "  # the AD on the non-dealer's KD
        "T C-H3",  # p.78: the 8D into the space wins the game
    ),
]


def _play(pos: Position, script: str) -> None:
    for text in script.split():
        text = text.removeprefix("~")
        move = pos.parse(text)
        refusal = pos.refusal(move)
        assert refusal is None, (text, refusal.code, refusal.message)
        assert move in pos.legal_moves(), text
        pos.push(move)


def play_turns(count: int | None = None) -> Position:
    """The position after the first ``count`` turns (all of them by default)."""
    pos = from_document(deal_document())
    for who, _, script in TURNS[:count]:
        assert pos.seat_name(pos.to_move) == who
        _play(pos, script)
        assert pos.is_over or pos.seat_name(pos.to_move) != who
    return pos


def turn_index(pages: str, who: str, nth: int = 0) -> int:
    """The index in TURNS of the ``nth`` turn of ``who`` on ``pages``."""
    return [i for i, (w, p, _) in enumerate(TURNS) if w == who and p == pages][nth]


def houses(pos: Position) -> list[list[str]]:
    piles: list[list[str]] = to_document(pos)["houses"]
    return piles


def waste(pos: Position, seat: str) -> list[str]:
    cards: list[str] = to_document(pos)[seat]["waste"]
    return cards


def legal(pos: Position) -> list[str]:
    return sorted(str(m) for m in pos.legal_moves())


def code(pos: Position, text: str) -> str | None:
    refusal = pos.refusal(pos.parse(text))
    return None if refusal is None else refusal.code


# ------------------------------------------------------------------ the hands


def test_the_two_hands_are_one_pack() -> None:
    """p.67: 26 cards each, the whole pack between them."""
    assert len(NON_DEALER) == len(DEALER) == 26
    cards = [parse_card(name) for name in NON_DEALER + DEALER]
    assert sorted(cards) == sorted(full_pack(0))


def scanned_ranks(scanned: str) -> list[str]:
    """The rank of each entry of a list as scanned (the suit symbols are unreliable).
    The OCR once reads a comma as a full stop and once as " f "."""
    entries = scanned.replace(". ", ", ").replace(" f ", ", ").split(",")
    return [re.findall(r"10|[2-9AKQJ]", entry)[-1] for entry in entries]


def test_the_scanned_lists_agree_with_the_hands() -> None:
    """pp.66-67: the lists, as far as the OCR keeps them, are the hands' own order."""
    assert DEALER[-14:] == DEALER_LIST_DECODED
    assert [c for c in NON_DEALER if c not in NON_DEALER_LOST] == NON_DEALER_LIST_DECODED
    i = NON_DEALER.index("KC")
    assert NON_DEALER[i + 1 : i + 8] == NON_DEALER_LOST
    for scanned, decoded in (
        (DEALER_LIST_AS_SCANNED, DEALER_LIST_DECODED),
        (NON_DEALER_LIST_AS_SCANNED, NON_DEALER_LIST_DECODED),
    ):
        assert scanned_ranks(scanned) == ["10" if c[0] == "T" else c[0] for c in decoded]


def test_the_deal() -> None:
    """p.67: the non-dealer's 2H 8C 6D 9C; p.68: the dealer's 6H 5C 8S 5H."""
    pos = from_document(deal_document())
    assert houses(pos) == [["2H"], ["8C"], ["6D"], ["9C"], ["6H"], ["5C"], ["8S"], ["5H"]]
    assert [len(seat.hand) for seat in pos.seats] == [22, 22]
    assert pos.rules.preset == "foster-one-pack"


# ------------------------------------------------------------------ the first turns


def test_p67_the_8C_on_the_9C_or_the_9C_on_the_8C() -> None:
    """p.67: either club may go on the other; had the 9 gone on the 8, the 10 that
    comes next would have had a place (p.68)."""
    pos = from_document(deal_document())
    assert {"H2-H4", "H4-H2"} <= set(legal(pos))
    other = from_document(deal_document())
    _play(other, "H4-H2 T C-H4 T")  # the 9C on the 8C, the AC into the space, the TC
    assert "C-H2" in legal(other)
    pos = play_turns(1)
    assert waste(pos, "A") == ["TC"]
    assert pos.seat_name(pos.to_move) == "B"


def test_p69_diagram_7_after_the_dealer_first_turn() -> None:
    """p.69, Diagram No. 7: the layout after each player's first turn."""
    pos = play_turns(2)
    assert houses(pos) == [
        ["2H", "AH"],
        ["AC"],
        ["6D"],
        ["9C", "8C"],
        ["6H", "5H"],
        ["5C"],
        ["8S"],
        ["8H"],
    ]
    assert waste(pos, "A") == ["TC"] and waste(pos, "B") == ["6S"]
    assert pos.seat_name(pos.to_move) == "A"


def test_p71_the_space_is_filled_from_the_discards_before_turning() -> None:
    """p.71: with the 6H-5H gone onto the 7H the non-dealer must fill the space with
    the top card of his discards before he turns another card."""
    pos = play_turns(8)
    _play(pos, "T C-H6 T C-H8")
    assert "H5-H8" in legal(pos)  # the two hearts move together, no space needed
    _play(pos, "H5-H8")
    assert houses(pos)[7] == ["8H", "7H", "6H", "5H"] and houses(pos)[4] == []
    assert code(pos, "T") == "S3"
    assert legal(pos).count("W-H5") == 1
    _play(pos, "W-H5 T C-W")
    assert houses(pos)[4] == ["QH"]
    assert waste(pos, "A") == ["TC", "KS", "2S", "JD"]


def test_p71_the_dealer_loads_from_his_hand() -> None:
    """p.71: the TD and the 9D go on the non-dealer's JD."""
    pos = play_turns(10)
    assert waste(pos, "A")[-3:] == ["JD", "TD", "9D"]
    assert waste(pos, "B") == ["6S", "3D", "4D", "2D", "QC"]


def test_p72_king_on_ace_and_no_loading_from_the_tableau() -> None:
    """pp.72-73: the KC goes on the AC; cards in the tableau may not be given to the
    opponent, so the 6D-5D cannot go on the dealer's 7D."""
    pos = play_turns(14)
    assert waste(pos, "B")[-1] == "7D" and houses(pos)[2] == ["6D", "5D"]
    _play(pos, "T C-H2")
    assert houses(pos)[1] == ["AC", "KC"]
    assert code(pos, "H3-OW") == "S4"


def test_the_inferred_exchange_of_the_5S_and_4S() -> None:
    """Not in the text: the dealer's 5S (his list, p.66) is unplayable; the
    non-dealer's 4S loads it, the 3H goes on the 4H and the 9H is discarded."""
    pos = play_turns(turn_index("inferred", "B") + 1)
    assert waste(pos, "B")[-1] == "5S"
    pos = play_turns(turn_index("inferred", "A") + 1)
    assert waste(pos, "B")[-2:] == ["5S", "4S"]
    assert houses(pos)[7][-1] == "3H"
    assert waste(pos, "A")[-1] == "9H"


def test_p74_the_spades_cannot_be_given_from_the_tableau() -> None:
    """p.74: the JS goes from his discards onto the dealer's QS; the spades of the
    tableau may not follow it, so he reverses them to shut the jack out."""
    pos = play_turns(turn_index("pp.73-75", "A"))
    script = TURNS[turn_index("pp.73-75", "A")][2].split()
    _play(pos, " ".join(script[: script.index("W-OW") + 1]))
    assert waste(pos, "B")[-2:] == ["QS", "JS"]
    assert houses(pos)[6] == ["8S", "9S", "TS"]
    assert code(pos, "H7-OW") == "S4"  # the TS would fit the JS, but it is a tableau card


def test_p75_the_layout_after_the_long_turn() -> None:
    """p.75: spades reversed (the 8S on top, then the 7S), clubs reversed (the 9C on
    top), the diamonds 9-10-J in the space, the spades A-2-3."""
    pos = play_turns(turn_index("pp.73-75", "A") + 1)
    assert houses(pos) == [
        ["9H", "8H", "7H", "6H", "5H", "4H", "3H", "2H", "AH"],
        ["AC", "KC"],
        ["6D", "5D"],
        ["9D", "TD", "JD"],
        ["QH", "JH"],
        ["AS", "2S", "3S"],
        ["3C", "4C", "5C", "6C", "7C", "8C", "9C"],
        ["TS", "9S", "8S", "7S"],
    ]
    assert waste(pos, "A") == ["TC", "KS", "KD"]  # the TC at the bottom, as he knew
    assert to_document(pos)["A"]["hand"] == []


def test_p75_not_obliged_to_play_the_opponents_jack() -> None:
    """p.75: the non-dealer turns his discards into a new hand; the TC comes first and
    goes on the 9C. The dealer's JC could now be taken onto it, but need not be."""
    pos = play_turns(turn_index("pp.75-76", "A"))
    _play(pos, "T")
    assert to_document(pos)["A"]["turned"] == "TC"
    _play(pos, "C-H7")
    assert "OW-H7" in legal(pos)  # borrowing the dealer's JC is allowed
    assert "T" in legal(pos)  # and not compulsory


def test_p76_the_dealer_makes_two_spaces() -> None:
    """p.76: the KH on the AH takes the QH-JH and makes a space; the 2C goes under the
    trey, and the AC-KC under the deuce, leaving two spaces."""
    pos = play_turns(turn_index("pp.76-78", "B"))
    _play(pos, "T C-H1 H5-H1")
    assert houses(pos)[4] == []
    _play(pos, "W-H5 H7-H5 H2-H7 H5-H2 H2-H7")
    assert houses(pos)[6] == ["KC", "AC", *(f"{r}C" for r in "23456789TJ")]
    assert [i + 1 for i, h in enumerate(houses(pos)) if not h] == [2, 5]


def test_p77_the_diamond_king_needs_a_space_to_go_under_the_queen() -> None:
    """p.77: once the diamonds are reversed (the 9D on top), the non-dealer's KD can
    reach the queen only by going into a space with the sequence moved onto it."""
    pos = play_turns(turn_index("pp.76-78", "B"))
    script = TURNS[turn_index("pp.76-78", "B")][2].split()
    _play(pos, " ".join(script[: script.index("W-H6")]))
    assert houses(pos)[4] == ["QD", "JD", "TD", "9D"]
    doc = to_document(pos)
    doc["to_move"] = "A"  # as if it were the non-dealer's turn, his KD on his discards
    del doc["engine"]
    theirs = from_document(doc)
    assert waste(theirs, "A")[-1] == "KD"
    assert code(theirs, "W-H5") == "S4"
    _play(theirs, "W-H2 H5-H2")  # with a space: the king in, the sequence onto it
    assert houses(theirs)[1] == ["KD", "QD", "JD", "TD", "9D"]


def test_p77_a_complete_suit_is_closed() -> None:
    """p.77: the TH completes the hearts; a full suit is turned down and keeps its place."""
    pos = play_turns(turn_index("pp.76-78", "B"))
    script = TURNS[turn_index("pp.76-78", "B")][2].split()
    _play(pos, " ".join(script[: script.index("W-H1") + 1]))
    assert len(houses(pos)[0]) == 13
    assert not [m for m in legal(pos) if m.startswith("H1-")]
    assert code(pos, "H1-H3") == "S5"


def test_p78_the_dealer_wins_and_the_non_dealer_pays_for_three_cards() -> None:
    """p.78: the AD goes on the non-dealer's discards, the last card (the 8D) into the
    space wins; the non-dealer has three cards to pay for: 30 and 3."""
    pos = play_turns()
    assert pos.status == "won" and pos.seat_name(pos.winner or 0) == "B"
    assert pos.ending == "cards"
    assert waste(pos, "A") == ["KS", "KD", "AD"]
    assert pos.score == [0, 33]


def test_the_whole_hand_every_move_legal() -> None:
    """Every move of both players, turn by turn, is legal under the preset (each is
    also checked against ``legal_moves``), and no card is created or lost."""
    pos = play_turns()
    assert sorted(pos.cards()) == sorted(full_pack(0))
    assert pos.turns == len(TURNS) - 1  # the last turn ends by winning, not by a discard
    assert sum(len(script.split()) for _, _, script in TURNS) == 147
