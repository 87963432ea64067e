"""Shared test setup: Hypothesis profiles and common fixtures.

``default`` runs hundreds of random games per player count; ``thorough``
(``COIMBRA_HYPOTHESIS_PROFILE=thorough``, run by CI as well) runs thousands.
"""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile("default", max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("thorough", max_examples=2000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("COIMBRA_HYPOTHESIS_PROFILE", "default"))

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "fixtures"


@pytest.fixture(scope="session")
def catalog():
    from coimbra_events.catalog import standin_catalog

    return standin_catalog()


def installed_coimbra() -> str:
    """The ``coimbra`` console script of this environment, as a user would run it."""
    beside = Path(sys.executable).parent / "coimbra"
    found = str(beside) if beside.exists() else shutil.which("coimbra")
    if not found:
        pytest.fail("the coimbra console script is not installed (pip install -e .)")
    return found
