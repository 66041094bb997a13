"""The formats of competitions, as pure functions: pairings, brackets, divisions,
ladders and standings.

Standard library and networkx only, nothing from Django (tests/competitions/test_purity.py):
the Django side (``competitions.services``) reads its rows into these values, calls a
function and stores what it returns. Player ids are ``int``. docs/competitions.md
explains each format in words.
"""
