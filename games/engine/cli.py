"""``python -m games.engine deal|legal|play|selfplay|verify`` (NOTATION.md, the command line)."""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections.abc import Sequence

from . import fairdeal
from .cards import card_name
from .deal import deal
from .document import dumps, loads
from .errors import BadPosition, IllegalMove
from .position import Position
from .rules import Rules, get_rules, rules_from_document
from .selfplay import selfplay


def _read_position() -> Position:
    return loads(sys.stdin.read())


def _rules(text: str) -> Rules:
    """``--rules``: a preset name, or a position document's ``rules`` object as JSON."""
    if not text.lstrip().startswith("{"):
        return get_rules(text)
    try:
        value = json.loads(text)
    except ValueError:
        raise BadPosition("--rules must be a preset name or a JSON object") from None
    return rules_from_document(value)


def _print_error(code: str, message: str, **extra: object) -> None:
    print(json.dumps({"error": code, **extra, "message": message}, ensure_ascii=False))


def cmd_deal(args: argparse.Namespace) -> int:
    rules = _rules(args.rules)
    starter = None
    if args.starter is not None:
        if args.starter not in rules.seat_names:
            _print_error("BAD_INPUT", f"--starter must be one of {', '.join(rules.seat_names)}")
            return 2
        starter = rules.seat_names.index(args.starter)
    print(dumps(deal(args.seed, rules, starter=starter), indent=2))
    return 0


def cmd_legal(args: argparse.Namespace) -> int:
    position = _read_position()
    for text in sorted(str(m) for m in position.legal_moves()):
        print(text)
    return 0


def cmd_play(args: argparse.Namespace) -> int:
    position = _read_position()
    texts = [t for arg in args.moves for t in arg.split()]
    for index, text in enumerate(texts):
        try:
            position.push(position.parse(text))
        except IllegalMove as exc:
            _print_error(exc.code, exc.message, move=text, index=index)
            return 1
    print(dumps(position, indent=2))
    return 0


def cmd_selfplay(args: argparse.Namespace) -> int:
    summary = selfplay(args.games, args.seed, _rules(args.rules))
    print(json.dumps(summary.as_dict(), indent=2))
    return 0


_TAG = re.compile(r'^\[(\w+) "((?:[^"\\]|\\.)*)"\]$')


def _tags(text: str) -> dict[str, str]:
    """The tag lines of an exported game (docs/notation.md)."""
    tags = {}
    for line in text.splitlines():
        found = _TAG.match(line.strip())
        if found:
            tags[found[1]] = found[2].replace('\\"', '"')
    return tags


def _deal_lines(seed: str, rules: Rules) -> list[str]:
    """The deal as a player saw it: each seat's top reserve card and its houses."""
    position = deal(seed, rules)  # a seed deals by its text: "8" as 8 does
    hps = rules.houses_per_seat
    lines = []
    for s, letter in enumerate(rules.seat_names):
        reserve = position.seats[s].reserve
        houses = [h[0] if h else None for h in position.houses[s * hps : (s + 1) * hps]]
        top = card_name(reserve[-1]) if reserve else "-"
        shown = " ".join(card_name(c) if c is not None else "-" for c in houses)
        lines.append(f"deal {letter}: reserve {top}, houses {shown}")
    return lines


def cmd_verify(args: argparse.Namespace) -> int:
    """Recompute a finished game's commitment and seed (docs/fair-deal.md), from its
    export (a file, or ``-`` for standard input) or from the values given."""
    tags: dict[str, str] = {}
    if args.export:
        with sys.stdin if args.export == "-" else open(args.export, encoding="utf-8") as file:
            tags = _tags(file.read())
    given = [c.split("=", 1)[1] if "=" in c else c for c in args.contribution or []]
    if "Contributions" in tags and not given:
        given = [part.split("=", 1)[1].split(":")[0] for part in tags["Contributions"].split()]
    scheme = args.scheme or int(tags.get("DealScheme", "2" if given else "1"))
    published = args.commitment or tags.get("Commitment") or tags.get("SeedHash", "")
    secret = args.secret or tags.get("Secret", "")
    seed = args.seed or tags.get("Seed", "")
    if scheme == fairdeal.CONTRIBUTED and not seed and secret:
        try:
            seed = fairdeal.derive_seed(secret, given)
        except fairdeal.BadContribution as exc:
            _print_error("BAD_INPUT", str(exc))
            return 2
    if not published or not seed:
        _print_error(
            "BAD_INPUT",
            "give a finished game's export, or its commitment and seed "
            "(scheme 1) or its commitment, secret and contributions (scheme 2)",
        )
        return 2
    check = fairdeal.verify(scheme, published, seed, secret, given)
    print(f"scheme {scheme}")
    for text, good in check.lines:
        print(("ok " if good else "FAILED ") + text)
    if check.ok:
        options = json.loads(tags["Options"]) if "Options" in tags else {}
        preset = args.rules or tags.get("Rules", "pagat")
        rules = _rules(json.dumps({"preset": preset, **options}) if options else preset)
        for line in _deal_lines(seed, rules):
            print(line)
    return 0 if check.ok else 1


RULES_HELP = (
    "rules: a preset (default: pagat), or options on one as JSON, e.g. "
    '\'{"preset": "pagat", "lenient_turn": true}\''
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m games.engine", description="The Russian Bank rules engine."
    )
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("deal", help="print the starting position of a new game")
    p.add_argument("--seed", required=True, help="the deal seed (an integer)")
    p.add_argument("--rules", default="pagat", help=RULES_HELP)
    p.add_argument(
        "--starter", help="the seat that starts (A or B), e.g. a later game of a match (V3)"
    )
    p.set_defaults(func=cmd_deal)
    p = sub.add_parser("legal", help="list the legal moves of the position on stdin")
    p.set_defaults(func=cmd_legal)
    p = sub.add_parser("play", help="apply moves to the position on stdin")
    p.add_argument("moves", nargs="*", help="moves in the notation, e.g. R-F3 T C-W")
    p.set_defaults(func=cmd_play)
    p = sub.add_parser(
        "verify", help="recompute a finished game's commitment, seed and deal (fair-deal.md)"
    )
    p.add_argument("export", nargs="?", help="the game's export (a file, or - for stdin)")
    p.add_argument("--scheme", type=int, choices=(1, 2), help="1: seed only; 2: contributed")
    p.add_argument("--commitment", help="the commitment published before the deal")
    p.add_argument("--secret", help="the server's secret, revealed at the end (scheme 2)")
    p.add_argument(
        "--contribution", action="append", help="a seat's contribution, in seat order: A=HEX"
    )
    p.add_argument("--seed", help="the seed revealed at the end")
    p.add_argument("--rules", help="the preset (default: the export's, else pagat)")
    p.set_defaults(func=cmd_verify)
    p = sub.add_parser("selfplay", help="play random games and print a summary")
    p.add_argument("--games", type=int, default=100)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--rules", default="pagat", help=RULES_HELP)
    p.set_defaults(func=cmd_selfplay)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        status: int = args.func(args)
    except BadPosition as exc:
        _print_error(exc.code, exc.message)
        return 2
    return status
