"""Starting a game from a lobby: options checked against the title's GameInfo, a fresh seed whose
SHA-256 is published, the rules service's initial state stored at version 0."""

from __future__ import annotations

import hashlib
import importlib
import re
import secrets
import uuid
from collections.abc import Awaitable, Sequence
from functools import cache
from pathlib import Path
from typing import Any

from boardgame.gateway.v1 import gateway_pb2
from boardgame.rules.v1 import rules_pb2
from google.protobuf import any_pb2, descriptor, message, symbol_database
from google.protobuf.timestamp_pb2 import Timestamp

from live import clocks, keys, outbox
from live.errors import invalid
from live.replies import blob, text
from live.store import STATUS_ACTIVE, Meta
from live.table import Table
from services.common.servicer import pack

SEED_BYTES = 32


@cache
def _load_generated_messages() -> None:
    """Import every generated *_pb2 module, so any title's Config type can be found by name."""
    import boardgame

    for root in boardgame.__path__:
        for path in sorted(Path(root).rglob("*_pb2.py")):
            parts = path.relative_to(Path(root).parent).with_suffix("").parts
            importlib.import_module(".".join(parts))


def _enum_prefix(enum: descriptor.EnumDescriptor) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "_", enum.name).upper() + "_"


def _set_option(config: message.Message, field: Any, value: str) -> None:
    """Set one Config field from an option value string (bool, string, integer or enum value name)."""
    if field.type == descriptor.FieldDescriptor.TYPE_BOOL:
        setattr(config, field.name, value == "true")
    elif field.type == descriptor.FieldDescriptor.TYPE_STRING:
        setattr(config, field.name, value)
    elif field.type == descriptor.FieldDescriptor.TYPE_ENUM:
        setattr(
            config,
            field.name,
            field.enum_type.values_by_name[_enum_prefix(field.enum_type) + value.upper()].number,
        )
    else:
        setattr(config, field.name, int(value))


def option_values(config: message.Message) -> list[gateway_pb2.GameOptionValue]:
    """The lobby options that `build_config` turns into `config` (its fields that are set), the inverse
    of `_set_option`."""
    values = []
    for field, value in config.ListFields():
        if field.type == descriptor.FieldDescriptor.TYPE_BOOL:
            chosen = "true" if value else "false"
        elif field.type == descriptor.FieldDescriptor.TYPE_ENUM:
            enum = field.enum_type
            assert enum is not None
            chosen = enum.values_by_number[value].name.removeprefix(_enum_prefix(enum)).lower()
        else:
            chosen = str(value)
        values.append(gateway_pb2.GameOptionValue(name=field.name, value=chosen))
    return values


def build_config(info: rules_pb2.GameInfo, options: list[gateway_pb2.GameOptionValue]) -> any_pb2.Any:
    """The title's Config message for these options, packed; INVALID_ARGUMENT for a bad option."""
    _load_generated_messages()
    config_class = symbol_database.Default().GetSymbol(info.config_type)
    config = config_class()
    known = {option.name: option for option in info.options}
    seen: set[str] = set()
    for option in options:
        spec = known.get(option.name)
        if spec is None:
            raise invalid("UNKNOWN_OPTION", f"{info.name} has no option {option.name!r}", option=option.name)
        if option.name in seen:
            raise invalid("DUPLICATE_OPTION", f"option {option.name!r} is set twice", option=option.name)
        if spec.choices and option.value not in spec.choices:
            raise invalid(
                "INVALID_OPTION_VALUE",
                f"option {option.name!r} must be one of {', '.join(spec.choices)}, not {option.value!r}",
                option=option.name,
            )
        seen.add(option.name)
        try:
            _set_option(config, config.DESCRIPTOR.fields_by_name[option.name], option.value)
        except (KeyError, ValueError) as error:
            raise invalid(
                "INVALID_OPTION_VALUE", f"option {option.name!r}: bad value {option.value!r}"
            ) from error
    # A string option left unset takes its listed default here, so the game's record names it (a
    # data set, say) rather than leaving it to whatever the rules service defaults to later.
    for spec in info.options:
        field = config.DESCRIPTOR.fields_by_name[spec.name]
        if (
            spec.name not in seen
            and spec.default_value
            and field.type == descriptor.FieldDescriptor.TYPE_STRING
        ):
            setattr(config, spec.name, spec.default_value)
    return pack(config)


def options_of(info: rules_pb2.GameInfo, config: any_pb2.Any) -> list[gateway_pb2.GameOptionValue]:
    """Option values that `build_config` turns into `config` again (a rematch's): for each option
    `config` sets, the choice that sets its field the same way, or its number."""
    _load_generated_messages()
    config_class = symbol_database.Default().GetSymbol(info.config_type)
    stored = config_class.FromString(config.value)
    options = []
    for spec in info.options:
        field = stored.DESCRIPTOR.fields_by_name[spec.name]
        wanted = getattr(stored, spec.name)
        if not (stored.HasField(spec.name) if field.has_presence else wanted):
            continue  # unset: the rematch leaves it unset too
        if not spec.choices:
            options.append(gateway_pb2.GameOptionValue(name=spec.name, value=str(int(wanted))))
            continue
        for choice in spec.choices:
            probe = config_class()
            _set_option(probe, field, choice)
            if getattr(probe, spec.name) == wanted:
                options.append(gateway_pb2.GameOptionValue(name=spec.name, value=choice))
                break
    return options


def validate_options(
    app: Table, title: str, seat_count: int, options: list[gateway_pb2.GameOptionValue]
) -> any_pb2.Any:
    """The title's packed Config of the options; raises unless the title exists, the seat count suits
    it and the options are valid."""
    info = app.rules.get(title).info
    if not info.min_players <= seat_count <= info.max_players:
        raise invalid(
            "INVALID_SEAT_COUNT",
            f"{info.display_name} is for {info.min_players} to {info.max_players} players, not {seat_count}",
        )
    return build_config(info, options)


def now() -> Timestamp:
    """The current time as a Timestamp."""
    stamp = Timestamp()
    stamp.GetCurrentTime()
    return stamp


async def start_game(
    app: Table,
    *,
    title: str,
    player_count: int,
    options: list[gateway_pb2.GameOptionValue],
    seats: list[gateway_pb2.GameSeat],
    clock: gateway_pb2.TurnClock,
    lobby_id: str,
    game_id: str = "",
    spectators: gateway_pb2.Spectators = gateway_pb2.SPECTATORS_UNSPECIFIED,
    invited_spectators: Sequence[str] = (),
    undo: gateway_pb2.UndoPolicy = gateway_pb2.UNDO_POLICY_UNSPECIFIED,  # what players may take back
    bot_takebacks: gateway_pb2.BotTakebacks = gateway_pb2.BOT_TAKEBACKS_UNSPECIFIED,  # how bots answer them
    tournament_id: str = "",
    tournament_round: int = 0,
    rated: bool = True,
) -> str:
    """Create the game (under `game_id`, or a fresh id): seed, initial state at version 0 with its clock
    entry, record, and its follow-ups (`live.outbox`): tell its players (the lobby started, whose turn
    it is; `live.mygames`), then queue what follows (bots). A game of `game_id` that exists already (a
    retried creation, `gateway.matchmaking`) is left as it is: only the follow-ups a creator that died
    left in its outbox are performed. `spectators` and `invited_spectators` say who may watch besides
    the players (`gateway.spectators`). A tournament's table names its tournament and round, and an
    unrated game (`rated` False) leaves the players' ratings as they were (`workers.scoring`)."""
    config = validate_options(app, title, player_count, options)
    rules_title = app.rules.get(title)
    seed = secrets.token_bytes(SEED_BYTES)
    created = await rules_title.call(
        "NewGame", rules_pb2.NewGameRequest(player_count=player_count, config=config, seed=seed)
    )
    game_id = game_id or uuid.uuid4().hex
    record = gateway_pb2.GameRecord(
        game_id=game_id,
        title=title,
        player_count=player_count,
        config=config,
        seats=seats,
        seed_sha256=hashlib.sha256(seed).hexdigest(),
        started_at=now(),
        edition=created.edition if created.HasField("edition") else None,
        spectators=spectators,
        invited_spectator_ids=invited_spectators,
        undo=undo,
        bot_takebacks=bot_takebacks,
        tournament_id=tournament_id,
        tournament_round=tournament_round,
        unrated=not rated,
    )
    setup = rules_pb2.ApplyActionResponse(events=created.events, acting_seats=created.acting_seats)
    acting = tuple(created.acting_seats)
    meta = Meta(record, STATUS_ACTIVE, clock, lobby_id, acting)
    at = clocks.now_ms()
    planned = clocks.plan(0, acting, meta, None, at)
    followup = outbox.Followup.of(0, acting, (), False, planned, at, started=True)
    await outbox.mark(app.redis, game_id)
    stored = app.store.create(
        record,
        seed,
        clock,
        lobby_id,
        created.state.SerializeToString(),
        setup,
        planned.pairs(),
        followup.encode(),
    )
    await app.followups.run(_stored(app, stored, meta, followup))
    return game_id


async def _stored(app: Table, stored: Awaitable[str | None], meta: Meta, followup: outbox.Followup) -> None:
    """`start_game` from its write on (run to its end even if the caller is cancelled:
    `live.followups`): perform the start's follow-ups (`live.outbox`), or those a creator of the game
    before left unperformed (it died)."""
    entry_id = await stored
    if entry_id is not None:
        await outbox.run(app, meta, entry_id, followup)
    else:
        await outbox.perform_pending(app, meta.record.game_id)


async def full_record(app: Table, meta: Meta) -> tuple[gateway_pb2.GameRecord, int]:
    """A finished game's whole record (seed, finish time, action log and final scores) and the version
    it ended at."""
    game_id = meta.record.game_id
    gone = await app.store.archived(game_id)
    if gone is not None:
        return gateway_pb2.GameRecord.FromString(gone.record.SerializeToString()), gone.version
    title = app.rules.get(meta.record.title)
    record = gateway_pb2.GameRecord()
    record.CopyFrom(meta.record)
    record.seed = await app.store.seed(game_id)
    finished_at = await app.redis.hget(keys.game_meta(game_id), "finished_at")
    if finished_at:
        record.finished_at.FromJsonString(text(finished_at))
    for entry in await app.store.log(game_id):
        logged = record.actions.add(version=entry.version, seat=entry.seat)
        if entry.returned_to is not None:  # an undo or a takeback (`live.undo`)
            logged.returned_to = entry.returned_to
            logged.takeback = entry.takeback
            continue
        logged.action.type_url = f"type.googleapis.com/{title.info.action_type}"
        logged.action.value = entry.action
    state, version = await app.store.state(game_id)
    scores = await title.call("GetScores", rules_pb2.GetScoresRequest(state=any_pb2.Any.FromString(state)))
    record.scores.CopyFrom(scores)
    chat = await app.redis.lrange(keys.game_chat(game_id), 0, -1)
    record.chat.extend(gateway_pb2.ChatMessage.FromString(blob(message)) for message in chat)
    return record, version
