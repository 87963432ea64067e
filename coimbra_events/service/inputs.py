"""An input as the table types it: a decision or an outcome in notation, players matched by name; the names of
players and the tags a person gives, checked."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Callable, Sequence

from coimbra_events.events import GameEvent
from coimbra_events.record import replace
from coimbra_events.store.errors import BadGameName, BadPlayers

if TYPE_CHECKING:
    from coimbra_events.game import Game
    from coimbra_events.names import Names


def typed_decision(text: str, game: Game, actor: str | None) -> GameEvent:
    """A decision or outcome typed in notation, components by name, id or prefix (``NotationError`` if unreadable);
    without ``Name:`` it is ``actor``'s."""
    from coimbra_events.notation import parse

    return with_player_name(parse(text, actor, _names(game)), game)


def typed_line(text: str, game: Game, actor: str | None) -> list[GameEvent]:
    """The entries a typed line holds (``coimbra_events.lines``: one, or several of one player's turn), read on the
    table as it is now (a ``walk`` to a space further away takes its route); without ``Name:`` they are ``actor``'s."""
    from coimbra_events.lines import read

    return [with_player_name(event, game) for event in read(text, actor, _names(game), game.state)]


def _names(game: Game) -> Names:
    """The game's names: its catalog's components, its players, and its monastery spaces by their monasteries."""
    from coimbra_events.names import Names

    return Names(game.catalog, [n for n, _ in game.header.players], dict(game.state.monasteries))


def with_player_name(event: GameEvent, game: Game) -> GameEvent:
    """``ana: pass`` means Ana: actors are matched to the players' names regardless of case."""
    names = {n.lower(): n for n, _ in game.header.players}
    actor = names.get(event.actor.lower())
    return replace(event, actor=actor) if actor and actor != event.actor else event


_TAG = re.compile(r"[^\s,]{1,40}")


def check_players(players: Sequence[tuple[str, str]]) -> None:
    """Names the notation can write and the rules core accepts; ``BadPlayers`` otherwise."""
    from coimbra_events.notation import is_name

    for player, color in players:
        if not is_name(player) or not is_name(color) or " " in color:
            raise BadPlayers(f"player {player!r} ({color!r}): names and colours may not contain ':', ',', '=' or '+'")


def check_tags(tags: Sequence[str], taken: Callable[[str], bool]) -> None:
    """Tags a person gives (an evening, a season): ``BadGameName`` for one with spaces or commas, or one that is a
    stored game's name (``taken``), so that a game's name never becomes a tag."""
    for tag in tags:
        if not _TAG.fullmatch(tag):
            raise BadGameName(f"tag {tag!r}: use up to 40 characters without spaces or commas")
        if taken(tag):
            raise BadGameName(f"tag {tag!r} is the name of a stored game: a tag names an evening or a season "
                              "(coimbra tag --add TAG GAME...)")
