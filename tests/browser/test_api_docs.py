"""The API's Swagger UI in a real browser: it draws the whole API from the site alone."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Route, expect

from .conftest import Console


def test_the_api_docs_draw_every_operation_with_no_other_host(
    transactional_db: None, new_page: Any, console: Console, live_server: Any
) -> None:
    page = new_page(1280)
    elsewhere: list[str] = []

    def only_this_site(route: Route) -> None:
        if route.request.url.startswith(live_server.url):
            route.continue_()
        else:  # a CDN, the public validator...: offline, it would not answer
            elsewhere.append(route.request.url)
            route.abort()

    page.route("**/*", only_this_site)
    page.goto("/api/v1/docs/")
    moves = page.locator(".opblock-post", has_text="/api/v1/games/{game_id}/moves/")
    expect(moves).to_be_visible()
    assert page.locator(".opblock").count() >= 20
    moves.locator(".opblock-summary").click()
    expect(moves.locator(".opblock-body")).to_contain_text("expected_version")
    assert elsewhere == []
    assert console.errors == []
