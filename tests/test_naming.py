"""Components named as people read them: name and id, for every named kind of the catalog."""

from projections.naming import component, name_of, named


def test_every_named_component_reads_as_its_name_and_id(catalog):
    tables = {"characters": catalog.characters, "favor_tiles": catalog.favor_tiles, "monasteries": catalog.monasteries,
              "voyages": catalog.voyages, "scoring_tiles": catalog.scoring_tiles}
    for table in tables.values():
        for ident, item in table.items():
            assert named(catalog, ident) == f"{item.name} ({ident})"
            assert name_of(catalog, ident) == item.name


def test_start_cards_are_start_cards_and_other_characters_character_cards(catalog):
    start, later = catalog.pile("I")[0], catalog.pile("II")[0]
    assert component(catalog, start) == ("start card", catalog.characters[start].name)
    assert component(catalog, later) == ("character card", catalog.characters[later].name)
    assert component(catalog, next(iter(catalog.voyages)))[0] == "voyage"


def test_an_id_the_catalog_does_not_name_stays_as_it_is(catalog):
    assert component(catalog, "gray-1") is None
    assert named(catalog, "gray-1") == "gray-1" and name_of(catalog, "blue-e1") == "blue-e1"
