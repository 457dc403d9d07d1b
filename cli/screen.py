"""What `bg` prints of a game as it goes: the whole table the first time, then only what changed."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial

from boardgame.gateway.v1 import gateway_pb2
from boardgame.rules.v1 import rules_pb2
from google.protobuf.message import Message

from cli.render import INDENT, Block, english, finished, header_lines, scores_lines
from cli.renderers import table_blocks


def changes(before: Sequence[Block], after: Sequence[Block]) -> list[str]:
    """The lines of `after` to print for someone who saw `before`: new or changed blocks, each under
    its heading; of a block that is not `whole`, only the lines it did not have."""
    seen = {block.heading: block for block in before}
    lines: list[str] = []
    for block in after:
        old = seen.get(block.heading)
        if old == block:
            continue
        fresh = [line for line in block.lines if old is not None and line not in old.lines]
        if old is None or block.whole or not fresh:
            lines.extend(block.text())
        else:
            lines.extend([block.heading, *(INDENT + line for line in fresh)])
    return lines


class Screen:
    """Prints one game's views to a person: in full once, then the changes since the last one shown.
    `data_of(title)` is the title's static data, which the table is drawn from besides the views."""

    def __init__(
        self,
        say: Callable[[str], None],
        data_of: Callable[[str], Message | None],
        words: Callable[[str, str, rules_pb2.Text], str] | None = None,
    ) -> None:
        self.say = say
        self.data_of = data_of
        self.words = words  # words(title, english, Text): a text in the reader's locale
        self.shown: list[Block] | None = None

    def show(self, game: gateway_pb2.GameView) -> None:
        """Print the header, the table (or what changed in it), and the scores once it is over."""
        blocks = table_blocks(game, self.data_of(game.title))
        lines = header_lines(game)
        lines += (
            [line for block in blocks for line in block.text()]
            if self.shown is None
            else changes(self.shown, blocks)
        )
        if finished(game):
            words = self.words
            lines += scores_lines(game, partial(words, game.title) if words else english)
        self.shown = blocks
        for line in lines:
            self.say(line)
