"""R7.2 with V13: a Stop! undoes a reshuffle's moves, but not the reshuffle itself.

Both players saw the cards the undone moves turned up, so the offender's next
reshuffle must order the hand anew, and replaying the log must agree.
"""

from __future__ import annotations

from games.engine import call_stop, to_document

from .builders import position
from .rules_support import QUIET
from .test_variants import KEY, V13, WASTE


def test_R7_2_a_stop_keeps_the_reshuffle_count_of_the_undone_moves() -> None:
    houses = {**QUIET, 1: "AD"}  # an ace fits a foundation: turning is S2
    start = position(
        rules=V13,
        H=houses,
        A={"reserve": "9C", "waste": WASTE},
        B={"reserve": "6H", "hand": "4C"},
        engine={"reshuffle_key": KEY, "reshuffles": {"A": 0, "B": 0}},
    )
    moves = [start.parse("T"), start.parse("C-W")]
    played = start.copy()
    assert [played.push(m, classic=True) for m in moves] == ["S2", "S2"]
    assert played.reshuffles == [1, 0]

    stopped = call_stop(start, moves, 0)
    assert stopped.reshuffles == [1, 0]  # the next reshuffle of A's waste is a new one
    assert to_document(stopped)["A"]["waste"] == WASTE.split()  # the moves are undone
    assert stopped.to_move == 1
