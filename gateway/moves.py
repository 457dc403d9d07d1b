"""Playing one action: the path every move takes, whoever makes it (a client, a bot, a turn clock).

Load the state, refuse a stale version (ABORTED), ask the rules service to apply the action, commit
through the write path, then queue what follows. A request id seen before returns its first result.
Nothing is written unless the rules accepted the action and the version still matched.
"""

from __future__ import annotations

from dataclasses import dataclass

import grpc
from boardgame.rules.v1 import rules_pb2
from google.protobuf import any_pb2

from gateway import metrics
from gateway.app import Gateway
from gateway.errors import GatewayError, invalid, not_found, precondition
from gateway.games import now
from gateway.store import STATUS_FINISHED, GameStore, Meta


@dataclass(frozen=True)
class Played:
    """The outcome of a move: its version, the change (None for a repeated request) and the view asked for."""

    version: int
    change: rules_pb2.ApplyActionResponse | None


def stale(version: int) -> GatewayError:
    """ABORTED: the game moved on since the client's version."""
    return GatewayError(
        grpc.StatusCode.ABORTED,
        "STALE_VERSION",
        f"the game is at version {version}; fetch it and retry",
        version=str(version),
    )


async def load_meta(store: GameStore, game_id: str) -> Meta:
    """The game's meta; NOT_FOUND for an unknown game."""
    meta = await store.meta(game_id)
    if meta is None:
        raise not_found("game", game_id)
    return meta


async def play(
    app: Gateway,
    game_id: str,
    seat: int,
    action: any_pb2.Any,
    expected_version: int,
    request_id: str,
    *,
    view_seat: int | None = None,
) -> Played:
    """Apply `seat`'s action at `expected_version` through the write path.

    With `view_seat`, the change carries that seat's view of the new state (`change.view`).
    """
    store = GameStore(app.redis, app.settings.event_history)
    snapshot = await store.snapshot(game_id, request_id)
    if snapshot is None:
        raise not_found("game", game_id)
    meta = snapshot.meta
    title = app.rules.get(meta.record.title)
    if action.type_url and action.TypeName() != title.info.action_type:
        raise invalid("WRONG_ACTION_TYPE", f"expected a {title.info.action_type}, got {action.type_url!r}")
    if request_id and snapshot.request_version is not None:
        return Played(snapshot.request_version, None)
    if meta.status == STATUS_FINISHED:
        raise precondition("GAME_OVER", "the game is over")
    if snapshot.version != expected_version:
        metrics.WRITE_CONFLICTS.labels(meta.record.title).inc()
        raise stale(snapshot.version)
    request = rules_pb2.ApplyActionRequest(
        state=any_pb2.Any.FromString(snapshot.state), seat=seat, action=action
    )
    if view_seat is not None:
        request.view_seat = view_seat
    change = await title.call("ApplyAction", request)
    result = await store.commit(
        game_id,
        expected_version=expected_version,
        state=change.state.SerializeToString(),
        seat=seat,
        action=action.value,
        request_id=request_id,
        change=change,
        finished_at=now().ToJsonString(),
    )
    if result.outcome == "duplicate":
        return Played(result.version, None)
    if result.outcome != "ok":
        metrics.WRITE_CONFLICTS.labels(meta.record.title).inc()
        raise stale(result.version)
    metrics.MOVES_APPLIED.labels(meta.record.title).inc()
    if change.game_over:
        await store.finish(meta.record.title, game_id)
    await app.dispatcher.after_commit(game_id, result.version, list(change.acting_seats), change.game_over)
    return Played(result.version, change)
