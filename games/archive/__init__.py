"""The open game database (docs/open-database.md): every finished public game in a
monthly file in the notation (``months``), and a player's finished games as a stream
(``stream``). Both write a game as ``notation.game_text`` does."""
