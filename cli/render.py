"""Readable text for what the gateway sends, shared by every title: seats, events, scores, and the
generic fallback that shows a title without a renderer of its own field by field.

A table is drawn as blocks (a heading and its lines), so that after a move only the blocks, and the
lines within them, that changed need printing (`cli.screen`).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from boardgame.gateway.v1 import gateway_pb2
from boardgame.rules.v1 import rules_pb2
from google.protobuf import any_pb2, descriptor_pool, message_factory
from google.protobuf.descriptor import EnumDescriptor, FieldDescriptor
from google.protobuf.message import Message

INDENT = "  "


@dataclass(frozen=True)
class Block:
    """One part of a table: a heading and its lines. A `whole` block (a drawing, such as a grid) is
    reprinted in full when any line of it changes; otherwise only its changed lines are."""

    heading: str
    lines: tuple[str, ...]
    whole: bool = False

    def text(self) -> list[str]:
        """The block as printed in full."""
        return [self.heading, *(INDENT + line for line in self.lines)]


@cache
def _load_title_packages() -> None:
    """Import every generated `boardgame.*` module, so any title's messages can be unpacked."""
    import boardgame

    # The generated folders have no __init__.py (namespace packages), so walk the files.
    for root in boardgame.__path__:
        for path in sorted(Path(root).rglob("*_pb2.py")):
            relative = path.relative_to(root).with_suffix("")
            importlib.import_module(".".join(("boardgame", *relative.parts)))


def unpack(packed: any_pb2.Any) -> Message | None:
    """The message inside an Any, or None if its type is unknown here."""
    _load_title_packages()
    name = packed.type_url.rsplit("/", 1)[-1]
    try:
        descriptor = descriptor_pool.Default().FindMessageTypeByName(name)
    except KeyError:
        return None
    message: Message = message_factory.GetMessageClass(descriptor)()
    packed.Unpack(message)
    return message


def plural(count: int, word: str) -> str:
    """`count` and `word`, with an "s" unless the count is one: "1 coin", "2 coins"."""
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


def enum_word(enum: EnumDescriptor, number: int) -> str:
    """An enum value for people: GOOD_CORN -> "corn", ROLE_PROSPECTOR_2 -> "prospector 2"."""
    value = enum.values_by_number.get(number)
    if value is None:
        return str(number)
    prefix = enum.values[0].name.removesuffix("UNSPECIFIED") if enum.values else ""
    return value.name.removeprefix(prefix).lower().replace("_", " ")


def _scalar(field: FieldDescriptor, value: object) -> str:
    if field.type == FieldDescriptor.TYPE_ENUM and field.enum_type is not None:
        return enum_word(field.enum_type, int(value))  # type: ignore[call-overload]
    if field.type == FieldDescriptor.TYPE_BOOL:
        return "yes" if value else "no"
    if field.type == FieldDescriptor.TYPE_BYTES:
        return bytes(value).hex()  # type: ignore[call-overload]
    return str(value)


def inline(message: Message, name_first: bool = False) -> str | None:
    """A message whose fields are all scalars on one line: "first (name value, ...)", or with
    `name_first` "name value, name value"; None if a field is a message."""
    parts: list[str] = []
    for field, value in message.ListFields():
        if field.type == FieldDescriptor.TYPE_MESSAGE:
            return None
        text = (
            ", ".join(_scalar(field, item) for item in value) if field.is_repeated else _scalar(field, value)
        )
        parts.append(text if not parts and not name_first else f"{field.name.replace('_', ' ')} {text}")
    if not parts:
        return "-"
    if name_first:
        return ", ".join(parts)
    return parts[0] + (f" ({', '.join(parts[1:])})" if len(parts) > 1 else "")


def message_lines(message: Message, depth: int = 0) -> list[str]:
    """A message as indented "field: value" lines, empty fields left out, flat parts on one line."""
    lines: list[str] = []
    pad = INDENT * depth
    for field, value in message.ListFields():
        label = field.name.replace("_", " ")
        if field.type == FieldDescriptor.TYPE_MESSAGE and field.message_type is not None:
            if field.message_type.full_name == "google.protobuf.Any":
                inner = unpack(value) if not field.is_repeated else None
                lines.extend([f"{pad}{label}:", *message_lines(inner, depth + 1)] if inner else [])
            elif field.message_type.GetOptions().map_entry:
                lines.append(f"{pad}{label}: " + ", ".join(f"{k} {v}" for k, v in sorted(value.items())))
            elif field.is_repeated:
                flat = [inline(item) for item in value]
                if all(item is not None for item in flat):
                    lines.append(f"{pad}{label}: " + "; ".join(str(item) for item in flat))
                    continue
                for index, item in enumerate(value):
                    lines.append(f"{pad}{label} {index + 1}:")
                    lines.extend(message_lines(item, depth + 1))
            else:
                flat_one = inline(value, name_first=True)
                if flat_one is not None:
                    lines.append(f"{pad}{label}: {flat_one}")
                else:
                    lines.append(f"{pad}{label}:")
                    lines.extend(message_lines(value, depth + 1))
        elif field.is_repeated:
            lines.append(f"{pad}{label}: " + ", ".join(_scalar(field, item) for item in value))
        else:
            lines.append(f"{pad}{label}: {_scalar(field, value)}")
    return lines


def generic_blocks(view: Message, game: gateway_pb2.GameView, data: Message | None = None) -> list[Block]:
    """The fallback for a title without a renderer: one block per field of its view."""
    blocks = []
    fields = [field for field, _ in view.ListFields()]
    for field in fields:
        part = type(view)()
        part.CopyFrom(view)
        for other in fields:
            if other is not field:
                part.ClearField(other.name)
        blocks.append(Block(field.name.replace("_", " "), tuple(message_lines(part))))
    return blocks


def seat_name(game: gateway_pb2.GameView, seat: int) -> str:
    """Who plays a seat, for people: "seat 0 Alice (you)". Seats are numbered from 0, as in the
    gateway's seats and the rules services' labels and event texts."""
    for entry in game.seats:
        if entry.seat == seat:
            tags = [
                tag
                for tag, on in (("bot", entry.player.bot or entry.bot_strength), ("resigned", entry.resigned))
                if on
            ]
            if game.HasField("seat") and game.seat == seat:
                tags.append("you")
            suffix = f" ({', '.join(tags)})" if tags else ""
            return f"seat {seat} {entry.player.display_name}{suffix}"
    return f"seat {seat}"


def header_lines(game: gateway_pb2.GameView) -> list[str]:
    """The line above every table: title, version, who acts."""
    status = "game over" if finished(game) else ""
    lines = [f"== {game.title}  version {game.version}  {status}".rstrip()]
    acting = ", ".join(seat_name(game, seat) for seat in game.acting_seats)
    if acting:
        lines.append(f"to act: {acting}")
    return lines


Words = Callable[[str, rules_pb2.Text], str]
"""A label or event text (its English and its Text) in the reader's locale."""


def english(text: str, message: rules_pb2.Text) -> str:
    """The English as sent: the Words of a reader of English."""
    return text


def scores_lines(game: gateway_pb2.GameView, words: Words = english) -> list[str]:
    """The final scores, best first."""
    lines = ["Final scores:"]
    for score in sorted(game.scores.scores, key=lambda s: (s.rank, s.seat)):
        items = ", ".join(f"{words(item.label, item.message)} {item.points}" for item in score.items)
        winner = "  winner" if score.seat in game.scores.winners else ""
        lines.append(f"  {score.rank}. {seat_name(game, score.seat)}: {score.total} ({items}){winner}")
    return lines


def finished(game: gateway_pb2.GameView) -> bool:
    """Whether the game is over."""
    return bool(game.status == gateway_pb2.GAME_STATUS_FINISHED)


def events_text(events: list[gateway_pb2.GameEvent], words: Words = english) -> list[str]:
    """One line per event."""
    return [f"  * {words(event.text, event.message)}" for event in events if event.text]
