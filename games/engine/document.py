"""Position documents in and out (NOTATION.md, "Position document").

The document is the referee's complete position. Fields of the engine's own go
under ``"engine"``: the R7.6/R8.4 counters, how a finished game ended, and
which pack each card came from (``packs``: one seat letter per card, pile by
pile, so the backs can be drawn and the packs sorted after the game), and under
V13 the secret that keys the reshuffles (``reshuffle_key``) with the count of
each seat's reshuffles (``reshuffles``); under V7 the face-down cards under each
house (``houses_down``: bottom to top, like every pile; ``houses`` holds only the
face-up cards), and under V9 which reserves are still face down (``reserve_down``,
seat -> true/false; the seat's ``reserve`` lists the cards either way). Under V14
(Foster's two-pack game): ``stock_down``, seat -> how many cards at the bottom of its
``reserve`` lie face down (the rest, the card turned with ``TR`` and any loaded on
it, are face up; without the field the whole reserve is face down, as dealt);
``new_hands``, seat -> how many times its waste has become its hand (S11; without
it 0); ``turn_card_moved`` and ``turn_own_played``, whether a card, and a card of
the mover's own, has moved in the turn (without them false). A document without
these fields is read as the start of the ``to_move`` seat's turn, with each card in
the pack of the seat that dealt its pile.
"""

from __future__ import annotations

import contextlib
import json
from collections import Counter
from typing import Any, Final

from .cards import (
    FACE_MASK,
    FOUNDATION_NEXT,
    JOKER,
    Card,
    card_name,
    full_pack,
    pack_of,
    parse_card,
    rank_of,
)
from .errors import BadPosition
from .families import family_of
from .position import PLAYING, STALEMATE, WON, Position, SeatPiles
from .rules import rules_from_document

FORMAT: Final = "rbank-position/1"
#: Card names as documents write them -> faces: the fast path of reading.
_FACES: Final = {card_name(c): c for c in full_pack()}
_STATUSES: Final = (PLAYING, WON, STALEMATE)
_HEX: Final = frozenset("0123456789abcdef")


def _names(cards: list[Card]) -> list[str]:
    return [card_name(c) for c in cards]


def _packs(cards: list[Card], letters: str) -> str:
    return "".join(letters[pack_of(c)] for c in cards)


def to_document(position: Position) -> dict[str, Any]:
    """The complete position as a JSON-ready dict (hidden cards included: referee only)."""
    letters = position.rules.seat_names
    doc: dict[str, Any] = {
        "format": FORMAT,
        "rules": position.rules.to_document(),
        "to_move": letters[position.to_move],
        "foundations": [_names(p) for p in position.foundations],
        "houses": [_names(p) for p in position.houses],
    }
    packs: dict[str, Any] = {
        "foundations": [_packs(p, letters) for p in position.foundations],
        "houses": [_packs(p, letters) for p in position.houses],
    }
    for i, seat in enumerate(position.seats):
        reserve = seat.reserve_down + seat.reserve  # V9, V14: face-down cards are listed too
        doc[letters[i]] = {
            "reserve": _names(reserve),
            "hand": _names(seat.hand),
            "waste": _names(seat.waste),
            "turned": None if seat.turned is None else card_name(seat.turned),
        }
        packs[letters[i]] = {
            "reserve": _packs(reserve, letters),
            "hand": _packs(seat.hand, letters),
            "waste": _packs(seat.waste, letters),
            "turned": None if seat.turned is None else letters[pack_of(seat.turned)],
        }
    down = position.rules.face_down_tableau > 0 or any(position.houses_down)
    if down:  # V7
        packs["houses_down"] = [_packs(p, letters) for p in position.houses_down]
    doc["status"] = position.status
    doc["winner"] = None if position.winner is None else letters[position.winner]
    doc["score"] = (
        None
        if position.score is None
        else {letters[i]: points for i, points in enumerate(position.score)}
    )
    doc["engine"] = {
        "turn_moves": position.turn_moves,
        "turn_productive": position.turn_productive,
        "turnovers": dict(zip(letters, position.turnovers, strict=True)),
        "quiet_turns": dict(zip(letters, position.quiet_turns, strict=True)),
        "turns": position.turns,
        "ending": position.ending,
        "packs": packs,
    }
    if down:  # V7: the face-down house cards, bottom to top, under each house
        doc["engine"]["houses_down"] = [_names(p) for p in position.houses_down]
    rules = position.rules
    if rules.stock_face_down:  # V14: the face-down part of each stock
        doc["engine"]["stock_down"] = {
            letters[i]: len(seat.reserve_down) for i, seat in enumerate(position.seats)
        }
    elif rules.reserve_face_down or any(s.reserve_down for s in position.seats):  # V9
        doc["engine"]["reserve_down"] = {
            letters[i]: bool(seat.reserve_down) for i, seat in enumerate(position.seats)
        }
    if position.family.jokers or position.set_aside:  # G3
        doc["engine"]["set_aside"] = _names(position.set_aside)
        packs["set_aside"] = _packs(position.set_aside, letters)
    if position.family.retires_houses:  # G3
        doc["engine"]["retired_house"] = position.retired_house
    if rules.compulsory_after_runs:  # V14 (S11)
        doc["engine"]["new_hands"] = dict(zip(letters, position.new_hands, strict=True))
    if rules.house_loads_first or rules.one_card_first:  # V14: the turn so far
        doc["engine"]["turn_card_moved"] = position.turn_card_moved
        doc["engine"]["turn_own_played"] = position.turn_own_played
    if position.rules.shuffle_waste:  # V13: referee only, like the hidden cards
        doc["engine"]["reshuffle_key"] = position.reshuffle_key
        doc["engine"]["reshuffles"] = dict(zip(letters, position.reshuffles, strict=True))
    return doc


def dumps(position: Position, indent: int | None = None) -> str:
    return json.dumps(to_document(position), indent=indent, ensure_ascii=False)


class _Reader:
    def __init__(
        self, doc: dict[str, Any], letters: str, pack_letters: str, *, jokers: bool = False
    ) -> None:
        self.letters = letters
        self.jokers = jokers  # G3: a joker may lie in a hidden pile
        # The packs' letters: one per seat, or only "A" with a single pack (G2, G4).
        self.pack_letters = pack_letters
        self.pack_bases = {letter: 64 * i for i, letter in enumerate(pack_letters)}
        engine = doc.get("engine")
        self.engine: dict[str, Any] = engine if isinstance(engine, dict) else {}
        packs = self.engine.get("packs")
        self.packs: dict[str, Any] = packs if isinstance(packs, dict) else {}

    def pile(
        self, value: object, where: str, pack_letters: object, default_pack: int
    ) -> list[Card]:
        if not isinstance(value, list):
            raise BadPosition(f"{where} must be a list of cards")
        letters = pack_letters if isinstance(pack_letters, str) else ""
        if letters and len(letters) != len(value):
            raise BadPosition(f"engine.packs for {where} does not match its cards")
        # The fast path: a document as to_document writes it. Anything else is read card
        # by card below, to accept other spellings or to say what is wrong.
        with contextlib.suppress(KeyError, TypeError):
            if letters:
                bases = self.pack_bases
                return [
                    bases[letter] + _FACES[name]
                    for letter, name in zip(letters, value, strict=True)
                ]
            return [default_pack * 64 + _FACES[name] for name in value]
        cards = []
        for i, name in enumerate(value):
            pack = self.pack_letters.find(letters[i]) if letters else default_pack
            if pack < 0:
                raise BadPosition(f"engine.packs for {where}: unknown pack {letters[i]!r}")
            face = _FACES.get(name) if isinstance(name, str) else None
            if face is None:  # not in output form: read it the long way, or refuse it
                face = self._face(name, where, self.jokers)
            cards.append(pack * 64 + face)
        return cards

    @staticmethod
    def _face(name: object, where: str, jokers: bool) -> int:
        if not isinstance(name, str):
            raise BadPosition(f"{where}: {name!r} is not a card")
        try:
            face = parse_card(name) & FACE_MASK
        except ValueError as exc:
            raise BadPosition(f"{where}: {exc}") from None
        if face == JOKER and not jokers:  # only the three-player game (G3) has one
            raise BadPosition(f"{where}: there is no joker in this game")
        return face

    def pile_list(
        self, doc: dict[str, Any], key: str, count: int, default: list[int]
    ) -> list[list[Card]]:
        value = doc.get(key)
        if not isinstance(value, list) or len(value) != count:
            raise BadPosition(f"{key} must be a list of {count} piles")
        pack_rows = self.packs.get(key)
        rows = (
            pack_rows if isinstance(pack_rows, list) and len(pack_rows) == count else [None] * count
        )
        return [self.pile(pile, f"{key}[{i}]", rows[i], default[i]) for i, pile in enumerate(value)]

    def counter(self, key: str) -> list[int]:
        value = self.engine.get(key, {})
        if not isinstance(value, dict):
            raise BadPosition(f"engine.{key} must map seats to numbers")
        counts = [value.get(s, 0) for s in self.letters]
        if not all(isinstance(c, int) and c >= 0 for c in counts):
            raise BadPosition(f"engine.{key} must map seats to non-negative integers")
        return counts


def from_document(doc: object) -> Position:
    """Read a position document (a dict, as parsed from JSON). Raises ``BadPosition``."""
    if not isinstance(doc, dict):
        raise BadPosition("a position document is a JSON object")
    if doc.get("format", FORMAT) != FORMAT:
        raise BadPosition(f"unknown format {doc.get('format')!r} (expected {FORMAT})")
    rules = rules_from_document(doc.get("rules"))
    letters = rules.seat_names
    one_pack = rules.packs == 1  # G2, G4: every card is of pack A
    family = family_of(rules)
    reader = _Reader(doc, letters, letters[:1] if one_pack else letters, jokers=family.jokers > 0)
    hps = rules.houses_per_seat
    foundations = reader.pile_list(doc, "foundations", rules.foundations, [0] * rules.foundations)
    house_packs = [0 if one_pack else h // hps for h in range(rules.houses)]
    houses = reader.pile_list(doc, "houses", rules.houses, house_packs)
    houses_down = None
    if "houses_down" in reader.engine:  # V7
        if not rules.face_down_tableau:
            raise BadPosition("engine.houses_down: these rules deal no face-down house cards")
        houses_down = reader.pile_list(reader.engine, "houses_down", rules.houses, house_packs)
        for i, (up, down) in enumerate(zip(houses, houses_down, strict=True)):
            if down and not up:
                raise BadPosition(
                    f"engine.houses_down[{i}]: a house with face-down cards needs a "
                    "face-up card on top"
                )
    seats = []
    for s, letter in enumerate(letters):
        data = doc.get(letter)
        if not isinstance(data, dict):
            raise BadPosition(f"seat {letter} is missing")
        seat_packs = reader.packs.get(letter)
        seat_packs = seat_packs if isinstance(seat_packs, dict) else {}
        pack = 0 if one_pack else min(s, rules.packs - 1)  # G3: three seats, two packs
        piles = [
            reader.pile(data.get(k, []), f"{letter}.{k}", seat_packs.get(k), pack)
            for k in ("reserve", "hand", "waste")
        ]
        turned_name = data.get("turned")
        turned = None
        if turned_name is not None:
            turned = reader.pile([turned_name], f"{letter}.turned", seat_packs.get("turned"), pack)[
                0
            ]
        seats.append(SeatPiles(piles[0], piles[1], piles[2], turned))
    down = reader.engine.get("reserve_down", {})
    if not isinstance(down, dict) or not all(isinstance(v, bool) for v in down.values()):
        raise BadPosition("engine.reserve_down must map seats to true or false")
    if rules.stock_face_down:  # V14: the bottom cards of each stock lie face down
        _read_stock(reader, letters, seats)
    else:
        if any(down.values()) and not rules.reserve_face_down:
            raise BadPosition("engine.reserve_down: these rules deal every reserve face up")
        for letter, seat in zip(letters, seats, strict=True):
            if down.get(letter):  # V9: this reserve is still face down
                seat.reserve, seat.reserve_down = [], seat.reserve
    to_move = doc.get("to_move", "A")
    if to_move not in tuple(letters):
        raise BadPosition(f"to_move must be one of {', '.join(letters)}")
    position = Position(
        rules,
        foundations=foundations,
        houses=houses,
        seats=seats,
        to_move=letters.index(to_move),
        houses_down=houses_down,
    )
    if "set_aside" in reader.engine:  # G3
        position.set_aside = reader.pile(
            reader.engine["set_aside"], "engine.set_aside", reader.packs.get("set_aside"), 0
        )
    retired = reader.engine.get("retired_house")
    if retired is not None:  # G3
        if not family.retires_houses:
            raise BadPosition("engine.retired_house: no house leaves play in these rules")
        if not (isinstance(retired, int) and 0 <= retired < rules.houses) or houses[retired]:
            raise BadPosition("engine.retired_house must be the index of an empty house or null")
        position.retired_house = retired
    _check_cards(position)
    _read_status(position, doc, reader)
    position.reveal_reserve()  # V9: a face-down reserve with nothing to wait for turns up
    return position


def _read_stock(reader: _Reader, letters: str, seats: list[SeatPiles]) -> None:
    """V14: ``engine.stock_down`` says how many cards at the bottom of each reserve lie
    face down; a seat it does not name has its whole reserve face down."""
    counts = reader.engine.get("stock_down", {})
    if not isinstance(counts, dict):
        raise BadPosition("engine.stock_down must map seats to numbers of cards")
    for letter, seat in zip(letters, seats, strict=True):
        n = counts.get(letter, len(seat.reserve))
        if not (isinstance(n, int) and not isinstance(n, bool) and 0 <= n <= len(seat.reserve)):
            raise BadPosition(
                f"engine.stock_down for {letter} must be a number from 0 to the reserve's "
                f"{len(seat.reserve)} cards"
            )
        seat.reserve_down, seat.reserve = seat.reserve[:n], seat.reserve[n:]


def _check_cards(position: Position) -> None:
    copies = Counter(map(FACE_MASK.__and__, position.cards()))
    packs = position.rules.packs
    too_many = sorted(card_name(face) for face, n in copies.items() if n > packs)
    if too_many:
        most = "one copy" if packs == 1 else f"{packs} copies"
        raise BadPosition(f"more than {most} of {', '.join(too_many)}")
    for i, pile in enumerate(position.foundations):
        for below, above in zip([None, *pile], pile, strict=False):
            fits = (
                rank_of(above) == 1
                if below is None
                else FOUNDATION_NEXT[below & FACE_MASK] == above & FACE_MASK
            )
            if not fits:
                raise BadPosition(f"foundations[{i}] is not built up in suit from the ace")


def _read_status(position: Position, doc: dict[str, Any], reader: _Reader) -> None:
    letters = position.rules.seat_names
    status = doc.get("status", PLAYING)
    if status not in _STATUSES:
        raise BadPosition(f"status must be one of {', '.join(_STATUSES)}")
    position.status = status
    winner = doc.get("winner")
    if winner is not None and winner not in tuple(letters):
        raise BadPosition("winner must be a seat or null")
    position.winner = None if winner is None else letters.index(winner)
    score = doc.get("score")
    if score is not None:
        if not isinstance(score, dict) or not all(isinstance(score.get(s), int) for s in letters):
            raise BadPosition("score must map every seat to its points")
        position.score = [score[s] for s in letters]
    engine = reader.engine
    turn_moves = engine.get("turn_moves", 0)
    turns = engine.get("turns", 0)
    if not (
        isinstance(turn_moves, int) and turn_moves >= 0 and isinstance(turns, int) and turns >= 0
    ):
        raise BadPosition("engine.turn_moves and engine.turns must be non-negative integers")
    position.turn_moves = turn_moves
    position.turns = turns
    position.turn_productive = bool(engine.get("turn_productive", False))
    position.turnovers = reader.counter("turnovers")
    position.quiet_turns = reader.counter("quiet_turns")
    ending = engine.get("ending")
    position.ending = ending if isinstance(ending, str) else None
    rules = position.rules
    if rules.compulsory_after_runs:  # V14 (S11)
        position.new_hands = reader.counter("new_hands")
    if rules.house_loads_first or rules.one_card_first:  # V14
        flags = [engine.get(key, False) for key in ("turn_card_moved", "turn_own_played")]
        if not all(isinstance(flag, bool) for flag in flags):
            raise BadPosition(
                "engine.turn_card_moved and engine.turn_own_played must be true or false"
            )
        position.turn_card_moved, position.turn_own_played = flags
    if position.rules.shuffle_waste:  # V13
        key = engine.get("reshuffle_key")
        if key is not None and not (
            isinstance(key, str) and len(key) == 64 and all(c in _HEX for c in key)
        ):
            raise BadPosition("engine.reshuffle_key must be 64 lower-case hexadecimal digits")
        position.reshuffle_key = key  # None: drawn at the first reshuffle (position.py)
        position.reshuffles = reader.counter("reshuffles")


def loads(text: str) -> Position:
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as exc:
        raise BadPosition(f"not JSON: {exc}") from None
    except RecursionError:
        raise BadPosition("not a position document: JSON nested too deeply") from None
    return from_document(doc)
