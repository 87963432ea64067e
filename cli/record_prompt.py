"""The recorder's prompt in a terminal, on prompt_toolkit: Tab completion, history and a bottom toolbar.

``PromptIo`` is the recorder's ``Io`` (``cli.record_command``) for a person at
a terminal: Tab completes the legal inputs, by name and by id, and the
recorder's own commands (``cli.record_completion.completions``), ↑ and ↓ walk
through the lines typed before, and the toolbar says who acts, what is due,
the round and the phase (``cli.record_completion.toolbar``). What a line
means is still decided by ``cli.record_words.read_typed``, and only the
rules refuse a move, before anything is stored.

Imported only by ``coimbra record`` at a terminal (prompt_toolkit is not needed
anywhere else); tests drive it with prompt_toolkit's pipe input.
"""

from __future__ import annotations

from typing import Iterable

from prompt_toolkit import PromptSession
from prompt_toolkit.completion import CompleteEvent, Completer, Completion
from prompt_toolkit.document import Document
from prompt_toolkit.history import InMemoryHistory
from prompt_toolkit.input import Input
from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent
from prompt_toolkit.output import Output
from rich.console import Console, RenderableType

from cli.record_completion import completions, toolbar
from coimbra_events.state import GameState


class LegalInputs(Completer):
    """Completions for the line typed so far, at the table the recorder is at now."""

    def __init__(self) -> None:
        self.state: GameState | None = None

    def get_completions(self, document: Document, complete_event: CompleteEvent) -> Iterable[Completion]:
        if self.state is None:
            return
        for found in completions(self.state, document.text_before_cursor):
            yield Completion(found.text, start_position=-found.back, display_meta=found.about)


class PromptIo:
    """The terminal, read through prompt_toolkit; text and boards printed through a Rich console."""

    def __init__(self, out: Console, input: Input | None = None, output: Output | None = None) -> None:
        self.out = out
        self.completer = LegalInputs()
        self.session: PromptSession[str] = PromptSession(history=InMemoryHistory(), input=input, output=output,
                                                         key_bindings=self._keys())
        self.toolbar = ""
        """The toolbar of the latest prompt (what the person sees at the bottom)."""

    def _keys(self) -> KeyBindings:
        """Tab completes at once when one input fits (before the next key is read), else opens the menu."""
        keys = KeyBindings()

        @keys.add("tab")
        def complete(event: KeyPressEvent) -> None:
            buffer = event.current_buffer
            if buffer.complete_state:
                buffer.complete_next()
                return
            found = list(self.completer.get_completions(buffer.document, CompleteEvent(completion_requested=True)))
            if len(found) == 1:
                buffer.apply_completion(found[0])
            elif found:
                buffer.start_completion(insert_common_part=True)

        return keys

    def ask(self, prompt: str, state: GameState | None = None, entries: int = 0) -> str:
        self.completer.state = state
        self.toolbar = toolbar(state, entries) if state is not None else ""
        return self.session.prompt(prompt, completer=self.completer if state is not None else None,
                                   bottom_toolbar=self.toolbar or None, complete_while_typing=False)

    def say(self, text: str = "") -> None:
        self.out.print(text, markup=False, highlight=False, soft_wrap=True)

    def show(self, renderable: RenderableType) -> None:
        self.out.print(renderable)


__all__ = ["LegalInputs", "PromptIo"]
