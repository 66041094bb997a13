"""The review of finished games (docs/review.md): queued when a game ends, computed by
the engine (``games.engine.review``) on a queue of its own, stored, and read by the API,
the replay page and the export."""
