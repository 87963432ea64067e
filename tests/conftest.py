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


@pytest.fixture(autouse=True)
def catalogs_folder(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty catalogs folder of this test's own (``$COIMBRA_CATALOGS``, inherited by the
    commands tests run): no test reads or changes the user's installed catalogs."""
    folder = tmp_path_factory.mktemp("catalogs")
    monkeypatch.setenv("COIMBRA_CATALOGS", str(folder))
    return folder


@pytest.fixture(autouse=True)
def analyses_folder(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty folder of kept analyses of this test's own (``$COIMBRA_ANALYSES``): the user's kept analyses never
    reach a test (the replayer and the replay page show the one kept for a record)."""
    folder = tmp_path_factory.mktemp("analyses")
    monkeypatch.setenv("COIMBRA_ANALYSES", str(folder))
    return folder


@pytest.fixture(scope="session")
def catalog():
    from coimbra_events.catalog import standin_catalog

    return standin_catalog()


def other_values_data() -> dict:
    """The stand-in with another value in every section: a box whose every number differs.

    Tests load it to show that rules, statements, views and scores read the catalog
    in force and nothing else.
    """
    import copy

    from coimbra_events.catalog import standin_catalog

    data = copy.deepcopy(dict(standin_catalog().data))
    data.update(id="other-values-1", title="Every value other than the stand-in's")
    data["dice"]["pool"]["white"] = 2
    data["dice"]["removed"] = {"3": {"purple": 1, "green": 1, "white": 1}, "2": {"gray": 1, "orange": 1, "purple": 2, "green": 2}}
    data["die_tokens"].update({"2": {"upper": [4, 2], "central": [5, 1], "lower": [6]}, "3": {"upper": [2], "central": [5], "lower": [4]}})
    data["start_resources"].update(coins=5, guards=6)
    data["limits"].update(coins=25, guards=22, influence=18)
    tiers = data["income"]["tiers"]
    for k, tier in enumerate(tiers):
        for track in ("gray", "orange", "purple", "green"):
            tier[track] = [tier[track][0] + 1, tier[track][1] + (k == len(tiers) - 1)]
    tiers[-1]["to"] = 18
    data["flag_crowns"]["values"] = [1, 2, 3, 5]
    data["crown_tokens"]["crowns"] = 2
    data["alternative_action"].update(coins=3, guards=1)
    data["rows"]["cards_per_row"] = 2
    data["start_groups"]["cards_per_group"] = 1
    for tile, crowns in zip(data["favor_tiles"], (2, 3, 1, 5)):
        tile["crowns"] = crowns
        for effect in tile["effects"]:
            if "amount" in effect:
                effect["amount"] += 1
    for entry in (*data["characters"], *data["monasteries"]):
        if "influence" in entry:
            entry["influence"] = 5 - entry["influence"]
        bonus = entry.get("bonus") or entry["reward"]
        for effect in bonus["effects"]:
            for key in ("amount", "points"):
                if key in effect:
                    effect[key] += 1
    for space, cost in zip(data["voyage_spaces"], (3, 5, 7, 1, 3, 5)):
        space["cost"] = cost
    data["voyage_spaces"].append({"resource": "guards", "cost": 8, "provenance": "printed"})
    for voyage in data["voyages"]:
        for effect in voyage["task"]:
            for key in ("amount", "points"):
                if key in effect:
                    effect[key] += 1
    for k, tile in enumerate(data["scoring_tiles"]):
        tile["points"] = {"2-3": [9 + k, 5, 1], "4": [9 + k, 6, 3, 1]}
    data["final_scoring"].update(leftover={"coins_per_point": 3, "guards_per_point": 4}, tie_break="shared")
    data["map"]["edges"].append(["road-n", "road-e"])
    road = next(s for s in data["map"]["spaces"] if s["id"] == "road-n")
    road.update(kind="monastery", pile="I")  # a ninth pile I monastery space
    data["discs"] = {"supply": 23, "provenance": "printed"}
    return data


@pytest.fixture(scope="session")
def other_values():
    from coimbra_events.catalog import parse_catalog

    return parse_catalog(other_values_data())


def installed_coimbra() -> str:
    """The ``coimbra`` console script of this environment, as a user would run it."""
    beside = Path(sys.executable).parent / "coimbra"
    found = str(beside) if beside.exists() else shutil.which("coimbra")
    if not found:
        pytest.fail("the coimbra console script is not installed (pip install -e .)")
    return found
