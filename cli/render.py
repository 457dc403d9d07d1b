"""Readable text for what the gateway sends: any title's view, events, scores and seats.

The client knows no game: a view is a `google.protobuf.Any` whose type the generated code of the
title's package describes, so it is shown field by field, skipping what is empty.
"""

from __future__ import annotations

import importlib
from functools import cache
from pathlib import Path

from boardgame.gateway.v1 import gateway_pb2
from google.protobuf import any_pb2, descriptor_pool, message_factory
from google.protobuf.descriptor import FieldDescriptor
from google.protobuf.message import Message

INDENT = "  "


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


def _scalar(field: FieldDescriptor, value: object) -> str:
    if field.type == FieldDescriptor.TYPE_ENUM and field.enum_type is not None:
        enum_value = field.enum_type.values_by_number.get(int(value))  # type: ignore[call-overload]
        if enum_value is None:
            return str(value)
        prefix = _enum_prefix(field.enum_type.values[0].name) if field.enum_type.values else ""
        return enum_value.name.removeprefix(prefix).lower().replace("_", " ")
    if field.type == FieldDescriptor.TYPE_BOOL:
        return "yes" if value else "no"
    if field.type == FieldDescriptor.TYPE_BYTES:
        return bytes(value).hex()  # type: ignore[call-overload]
    return str(value)


def _enum_prefix(zero_name: str) -> str:
    return zero_name.removesuffix("UNSPECIFIED")


def inline(message: Message, name_first: bool = False) -> str | None:
    """A message whose fields are all scalars on one line: "first (name value, ...)", or with
    `name_first` "name value, name value"; None if a field is a message."""
    parts: list[str] = []
    for field, value in message.ListFields():
        if field.type == FieldDescriptor.TYPE_MESSAGE:
            return None
        text = (
            ", ".join(_scalar(field, item) for item in value) if _repeated(field) else _scalar(field, value)
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
                inner = unpack(value) if not _repeated(field) else None
                lines.extend([f"{pad}{label}:", *message_lines(inner, depth + 1)] if inner else [])
            elif field.message_type.GetOptions().map_entry:
                lines.append(f"{pad}{label}: " + ", ".join(f"{k} {v}" for k, v in sorted(value.items())))
            elif _repeated(field):
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
        elif _repeated(field):
            lines.append(f"{pad}{label}: " + ", ".join(_scalar(field, item) for item in value))
        else:
            lines.append(f"{pad}{label}: {_scalar(field, value)}")
    return lines


def _repeated(field: FieldDescriptor) -> bool:
    return bool(field.is_repeated)


def seat_name(game: gateway_pb2.GameView, seat: int) -> str:
    """Who plays a seat, for people."""
    for entry in game.seats:
        if entry.seat == seat:
            bot = " (bot)" if entry.player.bot or entry.bot_strength else ""
            return f"seat {seat} {entry.player.display_name}{bot}"
    return f"seat {seat}"


def view_text(game: gateway_pb2.GameView) -> str:
    """A game view: who acts, the table as the caller sees it, and the scores once it is over."""
    lines = [f"== {game.title}  version {game.version}  " + ("game over" if finished(game) else "")]
    acting = ", ".join(seat_name(game, seat) for seat in game.acting_seats)
    if acting:
        lines.append(f"to act: {acting}")
    inner = unpack(game.view)
    if inner is not None:
        lines.extend(message_lines(inner))
    if finished(game):
        lines.extend(scores_lines(game))
    return "\n".join(lines)


def scores_lines(game: gateway_pb2.GameView) -> list[str]:
    """The final scores, best first."""
    lines = ["Final scores:"]
    for score in sorted(game.scores.scores, key=lambda s: (s.rank, s.seat)):
        items = ", ".join(f"{item.label} {item.points}" for item in score.items)
        winner = "  winner" if score.seat in game.scores.winners else ""
        lines.append(f"  {score.rank}. {seat_name(game, score.seat)}: {score.total} ({items}){winner}")
    return lines


def finished(game: gateway_pb2.GameView) -> bool:
    """Whether the game is over."""
    return bool(game.status == gateway_pb2.GAME_STATUS_FINISHED)


def events_text(events: list[gateway_pb2.GameEvent]) -> list[str]:
    """One line per event."""
    return [f"  * {event.text}" for event in events if event.text]
