"""One way to reach a real browser in tests: Debian's Chromium driven by Playwright, and axe-core's audit.

Shared by the replay page's tests and the live table's: the browser is launched one way
(``/usr/bin/chromium``, never a downloaded one), and a missing browser or a missing axe-core skips
the test, saying so, except in CI (``$CI`` set), where it fails: CI must run them. axe-core comes
from npm (``tests/a11y/package.json``, installed by ``.ci/run`` with ``npm ci``); it is injected into
the page under test and never served to users.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Any, Iterator, Sequence

import pytest

from tests.conftest import ROOT
from tests.store.conftest import in_ci

CHROMIUM = Path(os.environ.get("COIMBRA_CHROMIUM", "/usr/bin/chromium"))
ARTIFACTS = Path(os.environ.get("COIMBRA_ARTIFACTS", ROOT / "artifacts"))
AXE = ROOT / "tests" / "a11y" / "node_modules" / "axe-core" / "axe.min.js"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-background-networking", "--disable-component-update"]


def missing(why: str, needs: str) -> None:
    """Skip for want of ``needs``, or fail in CI, which must run every browser test."""
    if in_ci():
        pytest.fail(f"{why}: CI must run the browser tests ({needs})")
    pytest.skip(f"{why}; {needs}")


def chromium() -> Iterator[Any]:
    """A launched Chromium for a module-scoped fixture (``yield from chromium()``)."""
    if not (CHROMIUM.exists() or shutil.which(str(CHROMIUM))):
        missing(f"no Chromium at {CHROMIUM}", "the browser tests need Debian's chromium (apt-get install chromium)")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        missing("Playwright for Python is not installed", "install the 'test' extra")
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield browser
        browser.close()


def axe_violations(page: Any, also: Sequence[str] = ()) -> list[dict[str, Any]]:
    """axe-core's violations on the page as it is now (rule id, impact, the nodes' selectors).

    ``also`` names rules axe-core leaves off unless asked (its experimental ones, such as
    ``label-content-name-mismatch``) to run besides the others.
    """
    return axe_violations_of([page], also)[0]


def axe_violations_of(pages: Sequence[Any], also: Sequence[str] = ()) -> list[list[dict[str, Any]]]:
    """axe-core's violations on each of ``pages`` as they are now, audited at once (each page its own renderer):
    a test that audits several pages at every step waits for the slowest, not for all in turn."""
    if not AXE.exists():
        missing(f"no axe-core at {AXE.relative_to(ROOT)}", "run `npm ci` in tests/a11y")
    rules = {rule: {"enabled": True} for rule in also}
    quick = {"rules": rules, "resultTypes": ["violations"], "selectors": False}  # every rule; no selectors made
    for page in pages:
        if not page.evaluate("() => typeof axe !== 'undefined'"):
            page.add_script_tag(path=str(AXE))
        page.evaluate("(options) => { window.axeAudit = axe.run(document, options).then((r) => r.violations); }", quick)
    found = [page.evaluate("() => window.axeAudit") for page in pages]
    return [_violations(page, rules) if found[k] else [] for k, page in enumerate(pages)]


def _violations(page: Any, rules: dict[str, Any]) -> list[dict[str, Any]]:
    """The page's violations again, each node named by its selector (making selectors is most of axe-core's time
    on a large page: only a page that has violations is audited so)."""
    result = page.evaluate("async (options) => (await axe.run(document, options)).violations", {"rules": rules})
    return [{"id": v["id"], "impact": v["impact"], "help": v["help"], "nodes": [n["target"] for n in v["nodes"]]}
            for v in result]
