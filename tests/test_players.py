"""Who played: spellings that are one person, and the alias map of the club."""

from __future__ import annotations

import pytest

from coimbra_events.store.game_store import GameStore
from coimbra_events.players import Aliases, BadAlias, person_key
from coimbra_events.store.aliases import aliases_of, change_aliases


@pytest.mark.parametrize("a, b", [("Ana", "ana"), ("Conceição", "CONCEICAO"), ("  Ana   M. ", "ana m."), ("Zoë", "zoe"),
                                  ("Straße", "STRASSE"), ("Ａｎａ", "ana")])
def test_case_accents_and_spaces_do_not_count(a, b):
    assert person_key(a) == person_key(b)


@pytest.mark.parametrize("a, b", [("Ana", "Ana M."), ("Ana", "Anna"), ("Bruno", "Bruna")])
def test_other_letters_are_other_people(a, b):
    assert person_key(a) != person_key(b)


def test_an_alias_names_a_person_and_follows_chains():
    aliases = Aliases.open()
    aliases.add("Ana M.", "Ana Maria")
    aliases.add("ana maria", "Ana")
    assert aliases.resolve(person_key("ANA M.")) == "ana"
    aliases.remove("Ana M.")
    assert aliases.resolve("ana m.") == "ana m."


@pytest.mark.parametrize("alias, person, why", [
    ("Ana", "ANA", "already the same person"),
    ("", "Ana", "at least one letter"),
    ("Ana", "   ", "at least one letter"),
    ("Ana\x1b[2J", "Bruno", "printable"),
    ("x" * 65, "Ana", "at most 64"),
])
def test_an_alias_that_cannot_be_is_refused(alias, person, why):
    with pytest.raises(BadAlias, match=why):
        Aliases.open().add(alias, person)


def test_an_alias_loop_is_refused():
    aliases = Aliases.open()
    aliases.add("A", "B")
    aliases.add("B", "C")
    with pytest.raises(BadAlias, match="loop"):
        aliases.add("C", "a")


def test_withdrawing_what_is_no_alias_is_refused():
    with pytest.raises(BadAlias, match="not an alias"):
        Aliases.open().remove("Ana")


def test_aliases_are_events_in_the_store(tmp_path):
    store = GameStore(tmp_path / "s.sqlite")
    change_aliases(store, lambda a: a.add("Ana M.", "Ana"))
    change_aliases(store, lambda a: a.add("Bea", "Beatriz"))
    change_aliases(store, lambda a: a.remove("bea"))
    store.close()
    again = GameStore(tmp_path / "s.sqlite")
    stored = aliases_of(again)
    assert stored.targets == {"ana m.": "ana"} and stored.version == 4  # created, two aliases, one withdrawn
