"""The home page a visitor meets: a real table drawn by the site's own card components,
and the three ways to play, in the visitor's language."""

from __future__ import annotations

import re

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db


def test_the_home_page_draws_a_real_table_and_the_three_ways_to_play(client: Client) -> None:
    page = client.get("/").content.decode()
    assert len(re.findall(r'data-pile="[HF][1-8]"', page)) == 16  # the houses, the foundations
    assert page.count("data-card=") >= 10  # cards face up on a game under way
    assert "<button" not in page.split('class="sample-table"')[1].split("</figure>")[0]
    for way in ("On this site", "By e-mail", "From your own program"):
        assert way in page


def test_the_home_page_speaks_the_visitors_language(client: Client) -> None:
    page = client.get("/", HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "Trois façons de jouer la même partie" in page
    assert "Réserve" in page or "réserve" in page
