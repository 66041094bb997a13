"""Glicko-2 (Mark Glickman, "Example of the Glicko-2 system", 2012): a rating, its
deviation and its volatility, updated from the results of one rating period.

Written out here (some forty lines of arithmetic) rather than taken from a package:
the Glicko-2 packages on PyPI are unmaintained single-file copies of the paper. The
test reproduces the paper's worked example to its printed digits.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

#: The paper's scale factor between the Glicko and the Glicko-2 scales.
SCALE: Final = 173.7178
#: The system constant: how much the volatility may change (the paper suggests 0.3-1.2).
TAU: Final = 0.5
CONVERGENCE: Final = 0.000001
DEFAULT_RATING: Final = 1500.0
DEFAULT_DEVIATION: Final = 350.0
DEFAULT_VOLATILITY: Final = 0.06


@dataclass(frozen=True)
class Rating:
    rating: float = DEFAULT_RATING
    deviation: float = DEFAULT_DEVIATION
    volatility: float = DEFAULT_VOLATILITY


@dataclass(frozen=True)
class Result:
    """One game against ``opponent``: ``score`` 1 for a win, 0.5 a draw, 0 a loss."""

    opponent: Rating
    score: float


def _g(phi: float) -> float:
    return 1 / math.sqrt(1 + 3 * phi * phi / math.pi**2)


def _expected(mu: float, mu_j: float, phi_j: float) -> float:
    return 1 / (1 + math.exp(-_g(phi_j) * (mu - mu_j)))


def idle(player: Rating, periods: float) -> Rating:
    """The deviation after ``periods`` rating periods without a game (step 6 alone)."""
    phi = player.deviation / SCALE
    phi = math.sqrt(phi * phi + periods * player.volatility**2)
    return Rating(player.rating, min(phi * SCALE, DEFAULT_DEVIATION), player.volatility)


def update(player: Rating, results: Sequence[Result], tau: float = TAU) -> Rating:
    """``player`` after a rating period with ``results`` (steps 2-8 of the paper)."""
    if not results:
        return idle(player, 1)
    mu = (player.rating - DEFAULT_RATING) / SCALE
    phi = player.deviation / SCALE
    sigma = player.volatility
    terms = []
    for result in results:
        mu_j = (result.opponent.rating - DEFAULT_RATING) / SCALE
        phi_j = result.opponent.deviation / SCALE
        terms.append((_g(phi_j), _expected(mu, mu_j, phi_j), result.score))
    v = 1 / sum(g * g * e * (1 - e) for g, e, _ in terms)
    delta = v * sum(g * (s - e) for g, e, s in terms)
    sigma = _volatility(delta, phi, v, sigma, tau)
    phi_star = math.sqrt(phi * phi + sigma * sigma)
    phi = 1 / math.sqrt(1 / phi_star**2 + 1 / v)
    mu = mu + phi * phi * sum(g * (s - e) for g, e, s in terms)
    return Rating(mu * SCALE + DEFAULT_RATING, phi * SCALE, sigma)


def _volatility(delta: float, phi: float, v: float, sigma: float, tau: float) -> float:
    """Step 5: the new volatility, by the Illinois algorithm."""
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (delta**2 - phi**2 - v - ex) / (2 * (phi**2 + v + ex) ** 2) - (x - a) / tau**2

    big_a = a
    if delta**2 > phi**2 + v:
        big_b = math.log(delta**2 - phi**2 - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > CONVERGENCE:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2
        big_b, f_b = big_c, f_c
    return math.exp(big_a / 2)
