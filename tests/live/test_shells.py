"""The live table's pages (``cli.live.shells``): each page's file holds its body, the one head is written for all."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from cli.live.pages import ASSETS, HEADERS, _file
from cli.live.shells import SHELLS


@pytest.mark.parametrize("name", sorted(SHELLS))
def test_each_page_is_one_document_with_the_shared_head_its_title_and_stylesheets_it_can_load(name: str) -> None:
    answer = _file("live/static", name)
    page = answer.body.decode()
    title, styles = SHELLS[name]
    assert page.startswith('<!doctype html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n')
    assert [page.count(tag) for tag in ("<html", "<head>", "</head>", "<body>", "</body>", "</html>")] == [1] * 6
    assert f"<title>{title}</title>" in page and 'name="viewport"' in page
    assert re.findall(r'<link rel="stylesheet" href="/static/([^"]+)">', page) == list(styles)
    assert all(style in ASSETS for style in styles)
    assert {k: answer.headers[k] for k in HEADERS} == HEADERS  # the page's policy and caching, as every asset's


def test_every_page_file_has_its_shell() -> None:
    """A page added without its title and stylesheets here would be answered with an error, not a page."""
    folder = Path(__file__).resolve().parents[2] / "cli" / "live" / "static"
    assert {p.name for p in folder.glob("*.html")} == set(SHELLS)
