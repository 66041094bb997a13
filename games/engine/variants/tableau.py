"""Options that change the tableau: face-down house cards (V7), runs moved as a
group (V10), and houses built in suit (V11)."""

from __future__ import annotations

from ..board import SeatPiles
from ..cards import FACE_MASK, Card, Face
from ..errors import IllegalMove
from ..moves import HOUSE, Move
from ..position import Position


def group_start(
    houses: list[list[Card]], fits: tuple[tuple[Face, ...], ...], source: int, target: int
) -> int | None:
    """V10: where the run moved from house ``source`` onto the top card of house
    ``target`` starts (an index below the top), or None when no run fits there."""
    pile = houses[source]
    wanted = fits[houses[target][-1] & FACE_MASK]
    k = len(pile) - 1
    while k > 0 and pile[k] & FACE_MASK in fits[pile[k - 1] & FACE_MASK]:
        k -= 1
        if pile[k] & FACE_MASK in wanted:
            return k
    return None


class FaceDownTableau(Position):
    """V7: a house's face-down cards lie under its face-up ones; the top one turns
    up as soon as the cards on it have gone, so a house never lies empty on them."""

    __slots__ = ()

    def _emptied(self, h: int) -> None:
        if self.houses_down[h]:
            self.houses[h].append(self.houses_down[h].pop())
        else:
            super()._emptied(h)


class GroupMoves(Position):
    """V10: a run of house cards, each fitting on the one below it, moves as a group:
    ``H3-H5`` moves the run whose lowest card fits H5's top."""

    __slots__ = ()

    def _more_card_moves(
        self, seat: SeatPiles, accepts: dict[Face, list[int]], moves: list[Move]
    ) -> list[Move]:
        """Add the house moves whose run starts below the source's top card.

        A run's cards have different ranks, so at most one of them fits a given
        house top, and a house the top card fits takes the top card alone: these
        moves never repeat a single-card move. (That can only happen in Foster's
        one-pack game, G4: a run of twelve cards of a suit, King next to Ace, has
        both ends next to the missing card.)
        """
        fits = self._house_fits
        to_house = self._table.to_house
        for i, pile in enumerate(self.houses):
            k = len(pile) - 1
            single: list[int] | None = None
            while k > 0 and pile[k] & FACE_MASK in fits[pile[k - 1] & FACE_MASK]:
                k -= 1
                targets = accepts.get(pile[k] & FACE_MASK)
                if targets:
                    if single is None:
                        single = accepts.get(pile[-1] & FACE_MASK, [])
                    moves.extend(to_house[i + 2][j] for j in targets if j != i and j not in single)
        return super()._more_card_moves(seat, accepts, moves)

    def _fit_refusal(self, move: Move, card: Card) -> IllegalMove | None:
        refusal = super()._fit_refusal(move, card)
        if (
            refusal is not None
            and refusal.reason == "house_sequence"
            and move.src == HOUSE
            and group_start(self.houses, self._house_fits, move.si, move.di) is not None
        ):
            return None  # a run from lower down fits
        return refusal

    def _apply_card(self, move: Move) -> None:
        if not (move.src == HOUSE and move.dst == HOUSE and self._move_group(move)):
            super()._apply_card(move)

    def _move_group(self, move: Move) -> bool:
        """Move a run from below the top of a house, if ``move`` is such a move."""
        target = self.houses[move.di]
        if not target:
            return False  # an empty house takes the top card alone
        source = self.houses[move.si]
        if (source[-1] & FACE_MASK) in self._house_fits[target[-1] & FACE_MASK]:
            return False  # the top card alone fits: an ordinary move
        k = group_start(self.houses, self._house_fits, move.si, move.di)
        assert k is not None, "a checked group move has a run that fits"
        target.extend(source[k:])
        del source[k:]
        if not source:
            self._emptied(move.si)
        return True


class SameSuit(Position):
    """V11: houses are built down in the same suit (the fit table says which card
    goes on which; here only the words of a refusal change)."""

    __slots__ = ()

    def _house_rule(self, card: Card, top: Card) -> str:
        return "in_suit_down"
