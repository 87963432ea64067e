"""docs/commands.md is the app's command reference: a section per command, every option its --help lists, no other."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from tests.command_tree import every_command

DOC = (Path(__file__).resolve().parent.parent / "docs" / "commands.md").read_text(encoding="utf-8")
HEADING = re.compile(r"^#{2,3} `coimbra((?: [a-z-]+)*)`$", re.M)
OPTION = re.compile(r"(?<![\w-])--[a-z][a-z-]*")
SHORT = re.compile(r"(?<![\w-])-[a-zA-Z](?![\w-])")
SPAN = re.compile(r"`([^`\n]+)`|^(coimbra .*)$", re.M)


def options_of(command: Any) -> list[list[str]]:
    """The names of each option ``command --help`` lists (short ones too), but ``--help`` itself."""
    return [[*param.opts, *param.secondary_opts] for param in command.params
            if param.param_type_name == "option" and not param.hidden and "--help" not in param.opts]


OPTIONS = {path: options_of(command) for path, command in every_command()}
COMMANDS = {path: {name for names in options for name in names} for path, options in OPTIONS.items()}
"""Each command's path and every name its options answer to."""


def sections(doc: str) -> dict[tuple[str, ...], str]:
    """Each ``coimbra ...`` heading's command path and the text under it, up to the next heading."""
    found = list(HEADING.finditer(doc))
    ends = [m.start() for m in re.finditer(r"^#", doc, re.M)]
    return {tuple(m.group(1).split()): doc[m.end():next((e for e in ends if e > m.start()), len(doc))] for m in found}


def command_named(words: list[str]) -> tuple[str, ...]:
    """The longest command path that ``coimbra WORDS...`` names."""
    path: tuple[str, ...] = ()
    for word in words:
        if (*path, word) not in COMMANDS:
            break
        path = (*path, word)
    return path


def _is_group(path: tuple[str, ...]) -> bool:
    return any(len(other) == len(path) + 1 and other[:len(path)] == path for other in COMMANDS)


def unknown_names(text: str, section: tuple[str, ...] | None) -> list[str]:
    """Commands named in ``text`` that the app lacks, and options their command lacks: a ``coimbra ...`` span's own
    command's; any other, the section's command's (or, outside every section, some command's)."""
    wrong = []
    rest = text
    for span in SPAN.finditer(text):
        code = span.group(1) or span.group(2)
        if code.startswith("coimbra"):
            words = code.split()[1:]
            path = command_named(words)
            if _is_group(path) and len(words) > len(path) and re.fullmatch(r"[a-z][a-z-]*", words[len(path)]):
                wrong.append(f"no command {' '.join(words[:len(path) + 1])}")
            else:
                known = COMMANDS[path] | {"--help"}
                wrong += [f"{' '.join(path)}: {o}" for o in OPTION.findall(code) if o not in known]
            rest = rest.replace(code, "", 1)
    known = {"--help", *(COMMANDS[section] if section is not None else set().union(*COMMANDS.values()))}
    return wrong + [f"{' '.join(section or ())}: {o}" for o in OPTION.findall(rest) if o not in known]


def missing_from(doc: str) -> list[str]:
    """Commands without a section, and options a section does not name."""
    found = sections(doc)
    missing = [" ".join(path) or "coimbra" for path in COMMANDS if path not in found]
    for path, text in found.items():
        named = set(OPTION.findall(text)) | set(SHORT.findall(text))
        for names in OPTIONS.get(path, []):
            long = [n for n in names if n.startswith("--")] or names
            if not named & set(long):
                missing.append(f"{' '.join(path)}: {long[0]}")
    return missing


def invented_in(doc: str) -> list[str]:
    """Sections of commands the app does not have, and options no command (or not the one named) has."""
    found = sections(doc)
    invented = [" ".join(path) for path in found if path not in COMMANDS]
    invented += unknown_names(doc[:HEADING.search(doc).start()], None)
    return invented + [o for path, text in found.items() if path in COMMANDS for o in unknown_names(text, path)]


def test_every_command_and_option_has_its_place() -> None:
    assert len(COMMANDS) > 40
    assert missing_from(DOC) == []


def test_nothing_is_named_that_the_app_lacks() -> None:
    assert invented_in(DOC) == []


def test_a_missing_section_or_option_and_an_invented_one_are_caught() -> None:
    without_undo = re.sub(r"### `coimbra undo`\n.*?(?=\n### )", "", DOC, flags=re.S)
    assert missing_from(without_undo) == ["undo"]
    without_after = DOC.replace("[--after HASH] ", "").replace("`--after HASH` passes", "It passes")
    assert missing_from(without_after) == ["act: --after"]
    assert invented_in(DOC.replace("coimbra undo GAME [", "coimbra undo GAME [--force] [")) == ["undo: --force"]
    assert invented_in(DOC + "\n### `coimbra teleport`\n") == ["teleport"]
    assert invented_in(DOC.replace("`coimbra legal`", "`coimbra legal --all`", 1)) == ["legal: --all"]
    assert invented_in(DOC.replace("`coimbra legal`", "`coimbra teleport`", 1)) == ["no command teleport"]
    made = DOC.replace("`coimbra catalog build DIR -o FILE --id ID`", "`coimbra catalog make DIR -o FILE --id ID`")
    assert invented_in(made) == ["no command catalog make"]
