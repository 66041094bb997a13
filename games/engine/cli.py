"""``python -m games.engine deal|legal|play|selfplay`` (NOTATION.md, the command line)."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence

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
