"""Effects in their short written form, both ways: ``gain 3 guards``, ``per die gray: gain 1 guards``.

One grammar, read from each kind's ``phrase`` in :data:`effect_kinds.KINDS`, renders a
parsed :class:`Effect` (for sheets, ``catalog show`` and ``catalog diff``) and reads a
cell back into the catalog's JSON form, which the loader then checks like any other
catalog. A list is written with ``"; "`` between effects; a nested list (``per die``,
``if no die``, ``on acquiring``) with ``" and "`` between its effects; symbols with
``"+"``; a card condition as its values (``gray``, ``coins``, ``II``) or ``any``.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from coimbra_events.catalog.effect_kinds import CONDITION_KEYS, KINDS, Effect, EffectKind, Param

LIST_SEPARATOR = "; "
NESTED_SEPARATOR = " and "
SYMBOL_SEPARATOR = "+"
ANY_CARD = "any"

_SLOT = re.compile(r"\{(\w+)\}")
_OPTIONAL = re.compile(r"\[([^\]]*)\]")


class EffectTextError(ValueError):
    """A cell that is not written in any effect's short form: what was expected, what was found."""

    def __init__(self, expected: str, got: str) -> None:
        super().__init__(f"expected {expected}, got {got!r}")
        self.expected, self.got = expected, got


# ------------------------------------------------------------------- writing


def from_json(item: Mapping[str, Any]) -> Effect:
    """A valid effect of a catalog's JSON as the engine holds it (nested lists and symbols as tuples)."""
    kind = KINDS[item["kind"]]
    return Effect(kind.name, {n: _from_json(p, item[n]) for n, p in kind.params.items() if n in item})


def _from_json(param: Param, value: Any) -> Any:
    if param.type == "effects":
        return tuple(from_json(e) for e in value)
    if param.type == "symbols":
        return tuple(value)
    if param.type == "condition":
        return dict(value)
    return value


def render(effects: Iterable[Effect]) -> str:
    """An effect list in short form; ``""`` for none."""
    return LIST_SEPARATOR.join(render_one(e) for e in effects)


def render_one(effect: Effect) -> str:
    kind = KINDS[effect.kind]

    def optional(match: re.Match[str]) -> str:
        names = _SLOT.findall(match.group(1))
        return match.group(1) if all(n in effect.params for n in names) else ""

    text = _OPTIONAL.sub(optional, kind.phrase)
    return _SLOT.sub(lambda m: _render_value(kind.params[m.group(1)], effect.params[m.group(1)]), text)


def _render_value(param: Param, value: Any) -> str:
    if param.type == "effects":
        return NESTED_SEPARATOR.join(render_one(e) for e in value)
    if param.type == "symbols":
        return SYMBOL_SEPARATOR.join(value)
    if param.type == "condition":
        return " ".join(value[k] for k in CONDITION_KEYS if k in value) or ANY_CARD
    return str(value)


# ------------------------------------------------------------------- reading


def parse(text: str) -> list[dict[str, Any]]:
    """A cell's effect list as catalog JSON (``[]`` for an empty cell).

    Raises :class:`EffectTextError` naming the forms the text could have meant.
    Values are read as written; ranges and contexts are the loader's to check.
    """
    text = " ".join(text.split())
    if not text:
        return []
    return [parse_one(part.strip()) for part in text.split(LIST_SEPARATOR.strip())]


def parse_one(text: str) -> dict[str, Any]:
    """One effect in short form as catalog JSON."""
    text = " ".join(text.split())
    matches = [(name, m) for name, pattern in _patterns().items() if (m := pattern.fullmatch(text))]
    if len(matches) != 1:  # several cannot happen: a test renders every kind and reads it back
        raise EffectTextError(_expected_forms(text), text)
    kind, match = KINDS[matches[0][0]], matches[0][1]
    effect: dict[str, Any] = {"kind": kind.name}
    for name, param in kind.params.items():
        if match.group(name) is not None:
            effect[name] = _parse_value(param, match.group(name))
    return effect


def _parse_value(param: Param, text: str) -> Any:
    if param.type == "int":
        return int(text)
    if param.type == "enum":
        return _choice(text, param.choices)
    if param.type == "symbols":
        return text.split(SYMBOL_SEPARATOR)
    if param.type == "condition":
        return _parse_condition(text)
    return [parse_one(part) for part in text.split(NESTED_SEPARATOR)]


def _choice(text: str, choices: Iterable[str]) -> str:
    """The choice written regardless of case (``ii`` is pile ``II``), else the text as written."""
    return next((c for c in choices if c.lower() == text.lower()), text)


def _parse_condition(text: str) -> dict[str, str]:
    if text.lower() == ANY_CARD:
        return {}
    condition: dict[str, str] = {}
    for word in text.split():
        key = next((k for k, choices in CONDITION_KEYS.items() if word.lower() in (c.lower() for c in choices)), None)
        if key is None or key in condition:
            raise EffectTextError(f"a card condition: {_condition_words()}", text)
        condition[key] = _choice(word, CONDITION_KEYS[key])
    return condition


def _condition_words() -> str:
    values = ", ".join(c for choices in CONDITION_KEYS.values() for c in choices)
    return f"{ANY_CARD!r}, or at most one of each {' / '.join(CONDITION_KEYS)} ({values})"


# ------------------------------------------------------------------- the grammar


_SLOT_PATTERNS: Mapping[str, str] = {
    "int": r"-?\d+",
    "enum": r"[^\s;:+]+",
    "symbols": r"[^\s;:]+",
    "condition": r"[^;:]+?",
    "effects": r".+",
}


@functools.cache
def _patterns() -> dict[str, re.Pattern[str]]:
    """Each kind's phrase as a regular expression with one named group per parameter, by kind name."""
    return {kind.name: re.compile(_pattern(kind), re.IGNORECASE) for kind in KINDS.values()}


def _pattern(kind: EffectKind) -> str:
    def literal_and_slots(text: str) -> str:
        pieces = _SLOT.split(text)  # literal, name, literal, name, ...
        return "".join(
            re.escape(piece) if i % 2 == 0 else f"(?P<{piece}>{_SLOT_PATTERNS[kind.params[piece].type]})"
            for i, piece in enumerate(pieces)
        )

    pieces = _OPTIONAL.split(kind.phrase)  # outside, optional, outside, ...
    return "".join(
        literal_and_slots(piece) if i % 2 == 0 else f"(?:{literal_and_slots(piece)})?"
        for i, piece in enumerate(pieces)
    )


@dataclass(frozen=True)
class Form:
    """How a person writes one kind: ``gain AMOUNT RESOURCE`` and what each word stands for."""

    kind: EffectKind

    @property
    def pattern(self) -> str:
        return _SLOT.sub(lambda m: m.group(1).upper(), self.kind.phrase)

    def slots(self) -> str:
        names = _SLOT.findall(self.kind.phrase)  # in the order a person writes them
        return "; ".join(f"{name.upper()}: {describe_param(self.kind.params[name])}" for name in names)


def forms() -> list[Form]:
    """Every kind's written form, in vocabulary order (README.txt of the sheets lists them)."""
    return [Form(kind) for kind in KINDS.values()]


def describe_param(param: Param) -> str:
    """What a parameter's place in a phrase holds, in words."""
    if param.type == "int":
        return f"a whole number {param.minimum}-{param.maximum}"
    if param.type == "enum":
        return ", ".join(param.choices[:-1]) + f" or {param.choices[-1]}" if len(param.choices) > 1 else param.choices[0]
    if param.type == "symbols":
        return f"symbols joined by {SYMBOL_SEPARATOR!r}, e.g. rosette{SYMBOL_SEPARATOR}quill"
    if param.type == "condition":
        return _condition_words()
    return f"effects joined by {NESTED_SEPARATOR.strip()!r}"


def _expected_forms(text: str) -> str:
    """The forms a text that matches none could have meant: those it starts like, else all."""
    words = text.lower().split()
    candidates = [f for f in forms() if _starts_like(f.kind.phrase.lower().split(), words)]
    shown = candidates or forms()
    listed = ", ".join(repr(f.pattern) for f in shown)
    if len(shown) == 1:
        return f"{listed} ({shown[0].slots()})" if shown[0].kind.params else listed
    return f"an effect, one of {listed}"


def _starts_like(phrase: list[str], words: list[str]) -> bool:
    """Whether the text's first literal word (after a leading number) is the phrase's."""
    if not phrase or not words:
        return False
    if _SLOT.fullmatch(phrase[0]):
        return len(phrase) > 1 and len(words) > 1 and words[0].lstrip("-").isdigit() and phrase[1] == words[1]
    return phrase[0] == words[0]
