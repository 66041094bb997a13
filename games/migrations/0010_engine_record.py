"""Games keep the rules engine's own state: a snapshot while played, the compact
record once over. The move log table goes: each game's log is replayed through the
engine into its record.

The old log did not list a stalemate offer (only the last agreement) nor a wrong
Stop! call that cost no turn: the replay puts the offer just before the agreement,
and before a lost turn as many wrong calls on a clean move as the count needs; the
seats' counts of wrong calls are then kept as they were.
"""

from __future__ import annotations

from typing import Any

from django.db import migrations, models


def replay_logs(apps: Any, schema_editor: Any) -> None:
    from games.engine import Game as EngineGame
    from games.engine import WrongCallError
    from games.engine.record import CLASSIC, REFEREE
    from games.engine.rules import rules_from_document

    Game = apps.get_model("games", "Game")
    MoveRecord = apps.get_model("games", "MoveRecord")
    for game in Game.objects.order_by("pk").iterator(chunk_size=100):
        rules = rules_from_document({"preset": game.rules, **game.rule_options})
        letters = rules.seat_names
        seed = int(game.seed) if game.seed.isdigit() else game.seed
        mode = CLASSIC if game.stop_mode == "classic" else REFEREE
        engine = EngineGame(seed, rules, stop_mode=mode, starter=game.starter, encoding=True)
        for seat_letter, text in (
            MoveRecord.objects.filter(game=game).order_by("index").values_list("seat", "text")
        ):
            seat = letters.index(seat_letter)
            if text == "resigns":
                engine.resign(seat)
            elif text == "times-out":
                engine.timeout(seat)
            elif text == "agrees-stalemate":
                others = [s for s in range(rules.seats) if s != seat]
                engine.offer_stalemate(others[0])
                for other in others[1:]:
                    engine.agree_stalemate(other)
                engine.agree_stalemate(seat)
            elif text.startswith("stop:"):
                number, correction = text.removeprefix("stop:").split(":", 1)
                engine.call_stop(seat, int(number), correction)
            elif text == "loses-turn":
                _lose_turn(engine, seat, WrongCallError)
            else:
                engine.play(seat, [text])
        if game.status != "playing" and not engine.is_over:
            raise RuntimeError(f"game {game.pk}: its log does not end the game")
        letters_of = dict(enumerate(letters))
        game.ply = engine.entry_count
        game.to_move = letters_of[engine.to_move]
        score = engine.score
        game.score = None if score is None else dict(zip(letters, score, strict=True))
        game.winner = "" if engine.winner is None else letters_of[engine.winner]
        game.forfeiter = "" if engine.forfeiter is None else letters_of[engine.forfeiter]
        if engine.is_over:
            game.record, game.state = engine.encoded(), None
        else:
            state = engine.snapshot()
            state["wrong"] = [int(game.wrong_calls.get(letter, 0)) for letter in letters]
            game.state = state
        game.save()


def _lose_turn(engine: Any, seat: int, wrong_call: type[Exception]) -> None:
    """Wrong calls on a clean move of the last turn until the engine takes the turn."""
    from games.engine.stop import stop_verdict

    moves = engine.last_turn.moves
    start = engine.recent_steps()[0][1]
    clean = [n for n in range(len(moves)) if stop_verdict(start, moves, n)[1] is None]
    if not clean:
        raise RuntimeError("no clean move to call a wrong Stop! on before a lost turn")
    while engine.to_move == seat and not engine.is_over:
        try:
            engine.call_stop(seat, clean[0] + 1)
        except wrong_call:
            continue


class Migration(migrations.Migration):
    dependencies = [("games", "0009_outbox_ply")]

    operations = [
        migrations.AddField(
            model_name="game", name="state", field=models.JSONField(blank=True, null=True)
        ),
        migrations.AddField(
            model_name="game", name="record", field=models.BinaryField(blank=True, null=True)
        ),
        migrations.AddField(
            model_name="game", name="score", field=models.JSONField(blank=True, null=True)
        ),
        migrations.AddField(
            model_name="game", name="winner", field=models.CharField(blank=True, max_length=1)
        ),
        migrations.AddField(
            model_name="game", name="forfeiter", field=models.CharField(blank=True, max_length=1)
        ),
        migrations.RunPython(replay_logs, migrations.RunPython.noop),
        migrations.RemoveField(model_name="game", name="position"),
        migrations.RemoveField(model_name="game", name="current_turn"),
        migrations.RemoveField(model_name="game", name="last_turn"),
        migrations.DeleteModel(name="MoveRecord"),
    ]
