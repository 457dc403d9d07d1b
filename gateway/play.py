"""GameService: views with legal actions, moves, resignation, watch streams, records and replays."""

from __future__ import annotations

import contextlib
import functools
import time
from collections.abc import AsyncGenerator, Iterable

import grpc
from boardgame.gateway.v1 import gateway_pb2, gateway_pb2_grpc
from boardgame.rules.v1 import rules_pb2
from google.protobuf import any_pb2

from gateway import chat, inbox, lobbies, metrics, mygames, paging, rematch, spectators
from gateway.auth import Principal, authenticate, checked_caller, credentials
from gateway.encoded import Encoded
from gateway.errors import rpc, stream_rpc
from gateway.fanout import Fanout, SignedOut
from gateway.replays import Replays
from gateway.seat_views import SeatViews, Shown
from gateway.watch_leases import WatchLeases
from live import keys, moves, replay, resignations, takebacks, undo
from live.clocks import KIND_CLOCK, read_entry
from live.errors import invalid, precondition, unauthenticated
from live.games import full_record
from live.store import STATUS_FINISHED, Meta, changes_hands
from live.table import Table

META_REFRESH_SECONDS = 1.0  # how stale the seats a watcher is shown may be (they change hands rarely)
DEADLINE_CACHE_LIMIT = 10_000  # games whose current deadline a process remembers


def visible_events(
    events: Iterable[rules_pb2.Event], version: int, seat: int | None
) -> list[gateway_pb2.GameEvent]:
    """The events a seat (None: a spectator) may see, as sent to clients."""
    return [
        gateway_pb2.GameEvent(
            version=version,
            detail=event.detail,
            text=event.text,
            message=event.message if event.HasField("message") else None,
        )
        for event in events
        if not event.visible_to or (seat is not None and seat in event.visible_to)
    ]


class GameServicer(gateway_pb2_grpc.GameServiceServicer):
    """Live play for clients."""

    def __init__(self, app: Table, fanout: Fanout, leases: WatchLeases) -> None:
        self.app = app
        self.store = app.store
        self.fanout = fanout
        self.leases = leases
        self.lobbies = lobbies.LobbyService(app)
        self.metas: dict[str, tuple[Meta, float]] = {}  # game id -> meta and when it was read
        self.deadlines: dict[str, tuple[int, int]] = {}  # game id -> a version and its deadline
        self.views = SeatViews()  # the newest changes' views, each seat's built once
        self.replays = Replays(app)  # the finished games stepped through last

    async def _deadline(self, game_id: str, version: int) -> int | None:
        """When the acting seat's time runs out at `version` (ms since the epoch), if a clock runs; once
        found, it is remembered for the game's other watchers on this process."""
        known = self.deadlines.get(game_id)
        if known is not None and known[0] == version:
            return known[1]
        entry = await read_entry(self.app.redis, game_id)
        if entry is None or entry.kind != KIND_CLOCK or entry.version != version:
            return None
        if len(self.deadlines) >= DEADLINE_CACHE_LIMIT:
            self.deadlines.clear()
        self.deadlines[game_id] = (version, entry.due)
        return entry.due

    async def _recent_meta(self, game_id: str, fresh: bool = False) -> Meta:
        """The game's meta, read at most META_REFRESH_SECONDS ago (shared by this process's watchers);
        `fresh`: read now (the seats changed hands)."""
        now = time.monotonic()
        cached = self.metas.get(game_id)
        if not fresh and cached is not None and now - cached[1] <= META_REFRESH_SECONDS:
            return cached[0]
        meta = await moves.load_meta(self.store, game_id)
        self._remember(game_id, meta, now)
        return meta

    def _remember(self, game_id: str, meta: Meta, read_at: float) -> None:
        """Share a meta read at `read_at` (monotonic) with the game's watchers on this process. The metas
        are kept in the order they were read, and those read over META_REFRESH_SECONDS ago, which no
        watcher may use, are let go, oldest first: a process holds the metas of the games played in the
        last second, not one of every game it ever served (a soak saw a gateway grow 10 MB an hour)."""
        self.metas.pop(game_id, None)
        while self.metas:
            oldest = next(iter(self.metas))
            if read_at - self.metas[oldest][1] <= META_REFRESH_SECONDS:
                break
            del self.metas[oldest]
        self.metas[game_id] = (meta, read_at)

    async def _viewer(
        self, game_id: str, context: grpc.aio.ServicerContext
    ) -> tuple[Principal, Meta, int | None]:
        principal = await authenticate(self.app, context)
        meta = await moves.load_meta(self.store, game_id)
        spectators.admit(meta, principal.player_id)
        seats = moves.seats_of(meta, principal.player_id)
        return principal, meta, (seats[0] if seats else None)

    async def game_view(
        self, meta: Meta, state: bytes, version: int, seat: int | None
    ) -> gateway_pb2.GameView:
        """The GameView of a state for a seat (None: a spectator)."""
        request = rules_pb2.GetViewRequest(state=any_pb2.Any.FromString(state), include_legal_actions=True)
        if seat is not None:
            request.seat = seat
        view = await self.app.rules.get(meta.record.title).call("GetView", request)
        game = await self.shown(meta, version, seat, view, request.state)
        if seat is not None and not view.game_over:  # its players see a pending takeback request
            asked = await takebacks.pending(self.app, meta.record.game_id)
            if asked is not None:
                game.takeback.CopyFrom(asked.message(gateway_pb2.TAKEBACK_STATUS_PENDING))
        return game

    async def shown(
        self,
        meta: Meta,
        version: int,
        seat: int | None,
        view: rules_pb2.GetViewResponse,
        state: any_pb2.Any | None = None,
    ) -> gateway_pb2.GameView:
        """The GameView around a rules view; final scores (of `state`, else the stored state) are added
        once the game is over."""
        game = gateway_pb2.GameView(
            game_id=meta.record.game_id,
            title=meta.record.title,
            version=version,
            view=view.view,
            legal_actions=view.legal_actions,
            acting_seats=view.acting_seats,
            seats=meta.record.seats,
            seed_sha256=meta.record.seed_sha256,
            status=gateway_pb2.GAME_STATUS_FINISHED if view.game_over else gateway_pb2.GAME_STATUS_ACTIVE,
        )
        if seat is not None:
            game.seat = seat
        clock = meta.clock
        if (clock.per_move_seconds or clock.total_seconds) and not view.game_over:
            due = await self._deadline(meta.record.game_id, version)
            if due is not None:
                game.deadline.FromMilliseconds(due)
        if view.game_over:
            if state is None:
                state = any_pb2.Any.FromString((await self.store.state(meta.record.game_id))[0])
            title = self.app.rules.get(meta.record.title)
            game.scores.CopyFrom(await title.call("GetScores", rules_pb2.GetScoresRequest(state=state)))
        return game

    async def change_view(
        self, meta: Meta, version: int, seat: int | None, change: rules_pb2.ApplyActionResponse
    ) -> gateway_pb2.GameView:
        """The GameView after a change, from the views the change carries (asked for again if it has none)."""
        if seat is None and change.HasField("spectator_view"):
            return await self.shown(meta, version, seat, change.spectator_view)
        if seat is not None and seat < len(change.seat_views):
            return await self.shown(meta, version, seat, change.seat_views[seat])
        state, stored = await self.store.state(meta.record.game_id)
        return await self.game_view(meta, state, stored, seat)

    async def shared_view(
        self, meta: Meta, version: int, seat: int | None, change: rules_pb2.ApplyActionResponse
    ) -> Shown:
        """`change_view`, built once for the mover's reply and every watcher of the seat here."""
        key = (meta.record.game_id, version, seat)
        return await self.views.shown(key, lambda: self.change_view(meta, version, seat, change))

    async def _outcome(
        self,
        game_id: str,
        meta: Meta,
        version: int,
        seat: int | None,
        change: rules_pb2.ApplyActionResponse | None,
    ) -> tuple[list[gateway_pb2.GameEvent], gateway_pb2.GameView]:
        """What a commit of the caller's (a move, an undo) answers: the events the seat may see and its
        view after it; for a repeated request (no change), its first result again, read back."""
        if change is None:
            return await self._events_of(game_id, version, seat), await self._current_view(meta, seat)
        shown = await self.shared_view(meta, version, seat, change)
        return visible_events(change.events, version, seat), shown.view

    async def _current_view(self, meta: Meta, seat: int | None) -> gateway_pb2.GameView:
        state, version = await self.store.state(meta.record.game_id)
        return await self.game_view(meta, state, version, seat)

    @rpc
    async def GetGame(
        self, request: gateway_pb2.GetGameRequest, context: grpc.aio.ServicerContext
    ) -> gateway_pb2.GetGameResponse:
        """The caller's view with its legal actions."""
        _, meta, seat = await self._viewer(request.game_id, context)
        return gateway_pb2.GetGameResponse(game=await self._current_view(meta, seat))

    @rpc
    async def SubmitAction(
        self, request: gateway_pb2.SubmitActionRequest, context: grpc.aio.ServicerContext
    ) -> gateway_pb2.SubmitActionResponse:
        """Play one action for the caller's seat (the caller is authenticated while the game is read)."""
        caller = credentials(context)
        if not request.action.type_url:
            await authenticate(self.app, context)
            raise invalid("MISSING_ACTION", "action is missing: send one of the legal actions received")
        played = await moves.play(
            self.app,
            request.game_id,
            moves.seat_of(caller.player_id),
            request.action,
            request.expected_version,
            request.request_id,
            caller=checked_caller(self.app, caller),
            fan_out=self._fan_out,
        )
        events, view = await self._outcome(
            request.game_id, played.meta, played.version, played.seat, played.change
        )
        return gateway_pb2.SubmitActionResponse(version=played.version, events=events, game=view)

    @rpc
    async def Undo(
        self, request: gateway_pb2.UndoRequest, context: grpc.aio.ServicerContext
    ) -> gateway_pb2.UndoResponse:
        """Take back the caller's last decision (`live.undo`; the caller is authenticated while the game
        is read)."""
        caller = credentials(context)
        undone = await undo.undo(
            self.app,
            request.game_id,
            caller.player_id,
            request.expected_version,
            request.request_id,
            caller=checked_caller(self.app, caller),
            fan_out=self._fan_out,
        )
        events, view = await self._outcome(
            request.game_id, undone.meta, undone.version, undone.seat, undone.change
        )
        return gateway_pb2.UndoResponse(
            version=undone.version, events=events, game=view, returned_to=undone.returned_to
        )

    @rpc
    async def RequestTakeback(
        self, request: gateway_pb2.RequestTakebackRequest, context: grpc.aio.ServicerContext
    ) -> gateway_pb2.RequestTakebackResponse:
        """Ask the other players to let the caller take back their last decision (`live.takebacks`)."""
        principal = await authenticate(self.app, context)
        asked, _ = await takebacks.request(
            self.app, request.game_id, principal.player_id, request.expected_version, self._fan_out
        )
        game = await self._caller_view(request.game_id, principal.player_id)
        return gateway_pb2.RequestTakebackResponse(takeback=asked, game=game)

    @rpc
    async def AnswerTakeback(
        self, request: gateway_pb2.AnswerTakebackRequest, context: grpc.aio.ServicerContext
    ) -> gateway_pb2.AnswerTakebackResponse:
        """Accept or decline the pending takeback request for the caller's seats (`live.takebacks`)."""
        principal = await authenticate(self.app, context)
        if not request.takeback_id:
            raise invalid("MISSING_TAKEBACK_ID", "name the takeback_id answered", field="takeback_id")
        answered, _ = await takebacks.answer(
            self.app, request.game_id, principal.player_id, request.takeback_id, request.accept, self._fan_out
        )
        game = await self._caller_view(request.game_id, principal.player_id)
        return gateway_pb2.AnswerTakebackResponse(takeback=answered, game=game)

    async def _caller_view(self, game_id: str, player_id: str) -> gateway_pb2.GameView:
        """A player's view of the game as it is now."""
        meta = await moves.load_meta(self.store, game_id)
        self._remember(game_id, meta, time.monotonic())
        seats = moves.seats_of(meta, player_id)
        return await self._current_view(meta, seats[0] if seats else None)

    async def _events_of(self, game_id: str, version: int, seat: int | None) -> list[gateway_pb2.GameEvent]:
        """The events of one kept change, as `seat` may see them (none once it is no longer kept)."""
        return [
            event
            for changed, change in await self.store.changes_since(game_id, version - 1)
            if changed == version
            for event in visible_events(change.events, changed, seat)
        ]

    def _fan_out(self, meta: Meta, version: int, change: rules_pb2.ApplyActionResponse) -> None:
        """Hand a change this process committed to its watchers, at once (`live.moves.FanOut`)."""
        # The move read the meta just now: this process's watchers of the game need not read it again.
        self._remember(meta.record.game_id, meta, time.monotonic())
        self.fanout.deliver(meta.record.game_id, version, change)

    @rpc
    async def Resign(
        self, request: gateway_pb2.ResignRequest, context: grpc.aio.ServicerContext
    ) -> gateway_pb2.ResignResponse:
        """The caller's seats go to bots, committed as a change of hands; the caller ranks last. Once
        resigned, the caller's moves and resignations are refused (SEAT_RESIGNED)."""
        principal = await authenticate(self.app, context)
        handed = await resignations.hand_over(
            self.app,
            request.game_id,
            resignations.resigning(principal.player_id),
            gateway_pb2.BOT_STRENGTH_HEURISTIC,
            resignations.RESIGNED,
        )
        if handed.change is not None:
            self._remember(request.game_id, handed.meta, time.monotonic())
            self.fanout.deliver(request.game_id, handed.version, handed.change)
        state, version = await self.store.state(request.game_id)
        return gateway_pb2.ResignResponse(game=await self.game_view(handed.meta, state, version, None))

    @stream_rpc
    async def WatchGame(
        self, request: gateway_pb2.WatchGameRequest, context: grpc.aio.ServicerContext
    ) -> AsyncGenerator[gateway_pb2.WatchGameResponse | Encoded, None]:
        """The current view first; then the events of each change kept after from_version up to that
        view, oldest first, without views (the history); then every change as it is committed."""
        principal, meta, seat = await self._viewer(request.game_id, context)
        caller = credentials(context)
        session = keys.session(caller.player_id, caller.token_digest)
        metrics.WATCH_STREAMS.inc()
        try:
            async with (
                self.fanout.subscribe(request.game_id, session) as queue,
                self.leases.hold(principal.player_id, session),
            ):
                state, version = await self.store.state(request.game_id)
                kept = [
                    (v, c)
                    for v, c in await self.store.changes_since(request.game_id, request.from_version)
                    if v <= version
                ]
                complete = request.from_version >= version or (
                    kept and kept[0][0] == request.from_version + 1
                )
                game = await self.game_view(meta, state, version, seat)
                yield gateway_pb2.WatchGameResponse(game=game, resync=not complete)
                for changed, change in kept:
                    yield gateway_pb2.WatchGameResponse(events=visible_events(change.events, changed, seat))
                player = spectators.is_player(meta.record, principal.player_id)
                if request.from_version == 0:  # a first watch gets the kept chat; one resuming has it
                    for message in await chat.kept(self.app, request.game_id, player):
                        yield gateway_pb2.WatchGameResponse(chat=message)
                sent = version
                while game.status != gateway_pb2.GAME_STATUS_FINISHED:
                    item = await queue.get()
                    if isinstance(item, SignedOut):
                        raise unauthenticated("the token was signed out or revoked; sign in again")
                    if isinstance(item, gateway_pb2.ChatMessage):
                        if chat.readable(item, player):
                            yield gateway_pb2.WatchGameResponse(chat=item)
                        continue
                    if isinstance(item, gateway_pb2.InboxEvent):
                        continue
                    if isinstance(item, gateway_pb2.Takeback):
                        if player:
                            yield gateway_pb2.WatchGameResponse(takeback=item)
                        continue
                    if item is None:
                        state, sent = await self.store.state(request.game_id)
                        game = await self.game_view(meta, state, sent, seat)
                        yield gateway_pb2.WatchGameResponse(game=game, resync=True)
                        continue
                    changed, change = item
                    if changed <= sent:
                        continue
                    meta = await self._recent_meta(request.game_id, fresh=changes_hands(change))
                    missed = await self._missed(request.game_id, sent, changed)
                    for version, missed_change in missed:
                        yield gateway_pb2.WatchGameResponse(
                            events=visible_events(missed_change.events, version, seat)
                        )
                    shown = await self.shared_view(meta, changed, seat, change)
                    game = shown.view
                    if changed == sent + 1:  # as every watcher of the seat gets it: encoded once
                        yield shown.reply(functools.partial(visible_events, change.events, changed, seat))
                    else:
                        yield gateway_pb2.WatchGameResponse(
                            events=visible_events(change.events, changed, seat),
                            game=game,
                            resync=changed != sent + 1 + len(missed),
                        )
                    sent = changed
        finally:
            metrics.WATCH_STREAMS.dec()

    @rpc
    async def ListMyGames(
        self, request: gateway_pb2.ListMyGamesRequest, context: grpc.aio.ServicerContext
    ) -> gateway_pb2.ListMyGamesResponse:
        """One page of the caller's games: live ones first (the caller's turn first), then finished."""
        principal = await authenticate(self.app, context)
        size = paging.page_size(request.page_size)
        return await mygames.page(self.app, principal.player_id, size, request.page_token)

    @stream_rpc
    async def WatchInbox(
        self, request: gateway_pb2.WatchInboxRequest, context: grpc.aio.ServicerContext
    ) -> AsyncGenerator[gateway_pb2.WatchInboxResponse, None]:
        """The caller's inbox: the events kept after from_event_id, then each new one."""
        principal = await authenticate(self.app, context)
        caller = credentials(context)
        session = keys.session(caller.player_id, caller.token_digest)
        metrics.WATCH_STREAMS.inc()
        try:
            events = inbox.watch(
                self.app, self.fanout, self.leases, principal.player_id, session, request.from_event_id
            )
            async with contextlib.aclosing(events):
                async for response in events:
                    yield response
        finally:
            metrics.WATCH_STREAMS.dec()

    @rpc
    async def Rematch(
        self, request: gateway_pb2.RematchRequest, context: grpc.aio.ServicerContext
    ) -> gateway_pb2.RematchResponse:
        """A private lobby for a rematch of a finished game; the other players are invited."""
        principal = await authenticate(self.app, context)
        lobby = await rematch.rematch(self.app, self.lobbies, principal, request.game_id)
        return gateway_pb2.RematchResponse(lobby=lobby)

    @rpc
    async def SendChatMessage(
        self, request: gateway_pb2.SendChatMessageRequest, context: grpc.aio.ServicerContext
    ) -> gateway_pb2.SendChatMessageResponse:
        """Post a chat message in a game or a lobby."""
        principal = await authenticate(self.app, context)
        return gateway_pb2.SendChatMessageResponse(message=await chat.post(self.app, principal, request))

    @rpc
    async def InviteSpectator(
        self, request: gateway_pb2.InviteSpectatorRequest, context: grpc.aio.ServicerContext
    ) -> gateway_pb2.InviteSpectatorResponse:
        """Invite a player to watch a game, or a lobby's game (`gateway.spectators`)."""
        principal = await authenticate(self.app, context)
        place = request.WhichOneof("place")
        if not request.player_id:
            raise invalid("MISSING_PLAYER_ID", "name the player_id invited to watch", field="player_id")
        if place == "game_id":
            invited = await spectators.invite_to_game(self.app, principal, request.game_id, request.player_id)
        elif place == "lobby_id":
            invited = await self.lobbies.invite(principal, request.lobby_id, request.player_id)
        else:
            raise invalid("MISSING_PLACE", "name the game_id or the lobby_id to watch", field="place")
        return gateway_pb2.InviteSpectatorResponse(invited_spectator_ids=invited)

    async def _missed(
        self, game_id: str, sent: int, changed: int
    ) -> list[tuple[int, rules_pb2.ApplyActionResponse]]:
        """The kept changes between the version a watcher was sent and the one it gets now (a gap opens
        when a change committed here overtakes one published by another replica)."""
        if changed == sent + 1:
            return []
        return [(v, c) for v, c in await self.store.changes_since(game_id, sent) if v < changed]

    async def _finished(self, game_id: str, player_id: str) -> Meta:
        """The meta of a finished game the player may watch."""
        meta = await moves.load_meta(self.store, game_id)
        spectators.admit(meta, player_id)
        if meta.status != STATUS_FINISHED:
            raise precondition(
                "GAME_NOT_FINISHED", "the record and the seed are available once the game is over"
            )
        return meta

    async def record(self, game_id: str, player_id: str) -> gateway_pb2.GameRecord:
        """The full record of a finished game the player may watch, seed and actions included."""
        record, _ = await full_record(self.app, await self._finished(game_id, player_id))
        return record

    @rpc
    async def GetGameRecord(
        self, request: gateway_pb2.GetGameRecordRequest, context: grpc.aio.ServicerContext
    ) -> gateway_pb2.GetGameRecordResponse:
        """A finished game's record."""
        principal = await authenticate(self.app, context)
        record = await self.record(request.game_id, principal.player_id)
        player = spectators.is_player(record, principal.player_id)
        shown = [message for message in record.chat if chat.readable(message, player)]
        del record.chat[:]
        record.chat.extend(shown)
        return gateway_pb2.GetGameRecordResponse(record=record)

    @rpc
    async def ReplayGame(
        self, request: gateway_pb2.ReplayGameRequest, context: grpc.aio.ServicerContext
    ) -> gateway_pb2.ReplayGameResponse:
        """Re-derive every state from config, seed and log, and compare with what was stored."""
        principal = await authenticate(self.app, context)
        record = await self.record(request.game_id, principal.player_id)
        title = self.app.rules.get(record.title)
        replayed = await replay.replay(title, record)
        if replayed.mismatch:
            return gateway_pb2.ReplayGameResponse(
                consistent=False, actions_replayed=replayed.entries, mismatch=replayed.mismatch
            )
        state = replayed.state
        stored, _ = await self.store.state(request.game_id)
        if state.SerializeToString() != stored:
            return gateway_pb2.ReplayGameResponse(
                consistent=False, actions_replayed=len(record.actions), mismatch="the final state differs"
            )
        scores = await title.call("GetScores", rules_pb2.GetScoresRequest(state=state))
        if scores != record.scores:
            return gateway_pb2.ReplayGameResponse(
                consistent=False, actions_replayed=len(record.actions), mismatch="the scores differ"
            )
        return gateway_pb2.ReplayGameResponse(consistent=True, actions_replayed=len(record.actions))

    @rpc
    async def GetReplayStep(
        self, request: gateway_pb2.GetReplayStepRequest, context: grpc.aio.ServicerContext
    ) -> gateway_pb2.GetReplayStepResponse:
        """A finished game as it was after one step of its record, as the caller saw it: their own
        seat's view if they played it, else the spectators' (`gateway.replays`)."""
        _, meta, seat = await self._viewer(request.game_id, context)
        if meta.status != STATUS_FINISHED:
            raise precondition("GAME_NOT_FINISHED", "a game is replayed step by step once it is over")
        return await self.replays.reply(meta, request.step, seat, visible_events)
