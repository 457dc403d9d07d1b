"""Every Redis key the gateway and the workers use. Keys of a game carry the hash tag {game_id}, so a
game lives in one Redis Cluster slot and the write path's Lua script touches a single slot. Likewise a
player's keys (record, sessions, rate counters, ratings, history) carry {player_id}, so the gateway's
authentication is one script and end-game scoring updates a player in one step. No script or
transaction touches keys of two slots: end-game scoring (`workers.scoring`) goes slot by slot, and
`live.key_migrations` renames the keys of older versions that lacked a tag."""

from __future__ import annotations


def game_meta(game_id: str) -> str:
    """Hash: title, player count, config, seed, seats, status, clock, timestamps."""
    return f"game:{{{game_id}}}:meta"


def game_state(game_id: str) -> str:
    """String: the serialized rules State (packed Any bytes)."""
    return f"game:{{{game_id}}}:state"


def game_version(game_id: str) -> str:
    """String: the version, the number of commits: actions, and changes of hands (resignations,
    forfeits)."""
    return f"game:{{{game_id}}}:version"


def game_log(game_id: str) -> str:
    """Stream: one entry per action, entry id `<version>-1`, fields seat (s) and action (a); a change of
    hands has none (its version is missing here)."""
    return f"game:{{{game_id}}}:log"


def game_events(game_id: str) -> str:
    """List, capped: the changes of the last versions with their request ids (`live.store`), for
    watchers that resume and retried requests."""
    return f"game:{{{game_id}}}:events"


def game_requests(game_id: str) -> str:
    """Hash: request_id -> the 16-byte digest of the request it named, then the version that request
    produced (idempotency; see `live.store`)."""
    return f"game:{{{game_id}}}:requests"


def game_channel(game_id: str) -> str:
    """Pub/sub channel: every committed change of the game."""
    return f"game:{{{game_id}}}:changes"


def lobby(lobby_id: str) -> str:
    """String: the serialized Lobby message."""
    return f"lobby:{{{lobby_id}}}"


def open_lobbies() -> str:
    """Sorted set: public open lobby ids scored by creation time."""
    return "lobbies:open"


def open_lobbies_of(title: str) -> str:
    """Sorted set: public open lobby ids of one title scored by creation time."""
    return f"lobbies:open:{title}"


def player(player_id: str) -> str:
    """Hash: display name, guest, bot, username. A player's keys carry the hash tag {player_id}."""
    return f"player:{{{player_id}}}"


def username(name: str) -> str:
    """String: the player id of a named account (lower-cased name)."""
    return f"username:{name.lower()}"


def password(player_id: str) -> str:
    """String: the password hash of a named account."""
    return f"password:{player_id}"


def external_player(operator: str, external_id: str) -> str:
    """String: the player id an operator's user maps to."""
    return f"external:{operator}:{external_id}"


def session(player_id: str, token_hash: str) -> str:
    """String with expiry: present while the player's token (stored as its SHA-256) signs in."""
    return f"session:{{{player_id}}}:{token_hash}"


def api_key(key_hash: str) -> str:
    """String: the operator name of an API key (stored as its SHA-256)."""
    return f"apikey:{key_hash}"


def rate(subject: str, rate_class: str, second: int) -> str:
    """Counter with expiry: the calls of one rate class (`live.settings.DEFAULT_RATE_LIMITS`) in one
    second, of a player (its id), or of a client address or API key (`address_subject`,
    `api_key_subject`)."""
    return f"rate:{{{subject}}}:{rate_class}:{second}"


def address_subject(address: str) -> str:
    """What the calls of a client address are counted under (never a player id: those have no ':')."""
    return f"address:{address}"


def api_key_subject(key_hash: str) -> str:
    """What the calls of an operator's API key (its SHA-256) are counted under."""
    return f"apikey:{key_hash}"


def sign_in_failures(subject: str) -> str:
    """Counter with expiry: recent failed sign-ins of an account from an address (`account_subject`) or
    of an address (`address_subject`)."""
    return f"signin:{{{subject}}}:failures"


def sign_in_lock(subject: str) -> str:
    """String with expiry: present while the subject's sign-ins wait out their back-off."""
    return f"signin:{{{subject}}}:lock"


def account_subject(username: str, address: str) -> str:
    """What the sign-ins of a user name (lower-cased) from one client address are counted under."""
    return f"account:{username.lower()}@{address}"


def watch_leases(player_id: str) -> str:
    """Sorted set: the player's open watch streams (ids) scored by when their lease runs out (ms since
    the epoch), over every gateway replica."""
    return f"watching:{{{player_id}}}"


def hosted_lobbies(player_id: str) -> str:
    """Sorted set: ids of the lobbies the player opened as host, scored by creation time (closed and
    started ones are dropped when the player opens another)."""
    return f"hosting:{{{player_id}}}"


def organised_tournaments(player_id: str) -> str:
    """Sorted set: ids of the tournaments the player created, scored by creation time (finished and
    cancelled ones are dropped when the player creates another)."""
    return f"organising:{{{player_id}}}"


def minted_sessions(key_hash: str) -> str:
    """Sorted set: the session keys an operator's API key (its SHA-256) issued, scored by when they
    expire (Unix time); revoking the key signs them out."""
    return f"apikey:{key_hash}:sessions"


def revoked_sessions() -> str:
    """Pub/sub channel: the session key of each token signed out or revoked, so that every gateway
    replica ends that token's watch streams."""
    return "sessions:revoked"


def live_games(title: str) -> str:
    """Set: ids of the title's games being played."""
    return f"games:live:{title}"


def leaderboard(title: str) -> str:
    """Sorted set: player ids by displayed rating (filled by the scoring worker)."""
    return f"leaderboard:{title}"


def leaderboard_games(title: str) -> str:
    """Hash: player id -> the games count of the rating the leaderboard shows, so that a late write of
    an older rating never replaces a newer one. Its hash tag is the leaderboard's whole name, which
    puts it in the leaderboard's slot."""
    return f"{{{leaderboard(title)}}}:games"


def rating(title: str, player_id: str) -> str:
    """Hash: the player's rating on a title (mu, sigma, games, wins; filled by the scoring worker)."""
    return f"rating:{title}:{{{player_id}}}"


def deadlines() -> str:
    """Sorted set: game ids by the time (ms since the epoch) the workers must look at them next: a turn
    clock running out, a bot turn overdue, or a periodic check (filled by the dispatcher)."""
    return "games:deadlines"


def game_clock(game_id: str) -> str:
    """Hash: the game's turn clock and watchdog: version, kind (clock, bot, watch), seat, started_at and
    due (ms since the epoch; `due` is the acting seat's deadline when kind is clock) and left:<seat>
    (ms of total time left)."""
    return f"game:{{{game_id}}}:clock"


def game_outbox(game_id: str) -> str:
    """Stream: the follow-ups of the game's commits not yet performed, one entry each, written by the
    commit itself (`live.outbox`)."""
    return f"game:{{{game_id}}}:outbox"


def outbox_marks() -> str:
    """Sorted set: game ids by when the outbox sweep looks at them: marked by each move before its
    commit (`live.outbox`)."""
    return "games:outbox"


def game_result(game_id: str) -> str:
    """Hash: the finished game's result written once by `finalize`, its last step: record, scores,
    ranks, ratings."""
    return f"game:{{{game_id}}}:result"


def game_archived(game_id: str) -> str:
    """String with expiry: the title of a game archived in PostgreSQL (`live.archive`), kept as long as
    the game's other keys (the recent window)."""
    return f"game:{{{game_id}}}:archived"


def game_scoring(game_id: str) -> str:
    """String (JSON): the finished game's scoring plan while `finalize` goes through its steps: ranks,
    and each player's rating before and after (removed with the result's writing)."""
    return f"game:{{{game_id}}}:scoring"


def player_games(player_id: str) -> str:
    """Sorted set: a player's finished game ids by finish time (ms since the epoch); with an archive,
    only the newest (`live.history`)."""
    return f"history:player:{{{player_id}}}"


def title_games(title: str) -> str:
    """Sorted set: a title's finished game ids by finish time (ms since the epoch); with an archive,
    only the newest (`live.history`)."""
    return f"history:title:{title}"


def my_games(player_id: str) -> str:
    """Hash: the player's games as ListMyGames shows them: game id -> serialized MyGame (`live.mygames`);
    its own copy, so it outlives the game's keys."""
    return f"mygames:{{{player_id}}}"


def my_live_games(player_id: str) -> str:
    """Sorted set: ids of the player's games being played, by last change (ms since the epoch)."""
    return f"mygames:{{{player_id}}}:live"


def my_finished_games(player_id: str) -> str:
    """Sorted set: ids of the player's finished games, by finish time (ms since the epoch)."""
    return f"mygames:{{{player_id}}}:finished"


def inbox(player_id: str) -> str:
    """Stream, capped: the player's inbox events (field e: a serialized InboxEvent without its id)."""
    return f"inbox:{{{player_id}}}"


def inbox_channel(player_id: str) -> str:
    """Pub/sub channel: each new inbox event of the player, as `<stream id>|<event>`."""
    return f"inbox:{{{player_id}}}:events"


def inbox_reminders() -> str:
    """Sorted set: `<game id>|<version>|<player id>` by when the player's deadline-near reminder is due
    (ms since the epoch); swept by the workers."""
    return "inbox:reminders"


def game_chat(game_id: str) -> str:
    """List, capped: the game's chat messages (serialized ChatMessage), oldest first."""
    return f"game:{{{game_id}}}:chat"


def game_chat_channel(game_id: str) -> str:
    """Pub/sub channel: each new chat message of the game (a serialized ChatMessage)."""
    return f"game:{{{game_id}}}:chat:new"


def game_undo(game_id: str) -> str:
    """List, capped: what the acting seat may take back (`live.undo`): a mark of the last barrier, then
    the states before each of its decisions since, oldest first; written by the commit script only."""
    return f"game:{{{game_id}}}:undo"


def game_takeback(game_id: str) -> str:
    """Hash: the game's pending takeback request (`live.takebacks`), if any; the commit that carries it
    out (or ends the game) deletes it."""
    return f"game:{{{game_id}}}:takeback"


def takeback_deadlines() -> str:
    """Sorted set: `<game id>|<takeback id>` by when (ms since the epoch) the takeback request lapses
    unless every seat asked accepted; swept by the workers with the turn clocks (`live.takebacks`)."""
    return "games:takebacks"


def match_queues() -> str:
    """Set: the ids of the match queues that may hold tickets (`live.matchmaking`), for the matchers."""
    return "match:queues"


def match_kind(queue: str) -> str:
    """String: the kind of game a match queue is for (a FindMatchRequest of title, seats, options and
    clock). A queue's keys carry the hash tag {queue}, so its match script touches one slot."""
    return f"match:{{{queue}}}:kind"


def match_tickets(queue: str) -> str:
    """Sorted set: a match queue's waiting tickets by join time (ms since the epoch)."""
    return f"match:{{{queue}}}:tickets"


def match_facts(queue: str) -> str:
    """Hash: ticket -> `<player id>|<rating>|<bots after ms>|<bot strength>` of a queue's waiting tickets."""
    return f"match:{{{queue}}}:facts"


def match_seen(queue: str) -> str:
    """Hash: ticket -> when its searching stream last looked at it (ms), of a queue's waiting tickets."""
    return f"match:{{{queue}}}:seen"


def match_forming(queue: str) -> str:
    """Hash: game id -> `<holder>|<bot strength>|<ticket>,<ticket>...` of each group of a queue the
    match script formed whose game is not yet created and told (`live.matchmaking`)."""
    return f"match:{{{queue}}}:forming"


def match_leases(queue: str) -> str:
    """Sorted set: game id -> until when (ms) a gateway's lease on creating that forming group's game
    lasts; past it, any matcher takes the group over."""
    return f"match:{{{queue}}}:leases"


def match_ticket(ticket: str) -> str:
    """Hash with expiry: a ticket's player, status, join time, and once matched its game, bots, band
    and wait. The ticket id starts with its queue's, which is its hash tag."""
    return match_ticket_prefix(ticket.partition(".")[0]) + ticket


def match_ticket_prefix(queue: str) -> str:
    """What the keys of a queue's tickets (`match_ticket`) start with, for the match script."""
    return f"match:{{{queue}}}:ticket:"


def match_player(player_id: str) -> str:
    """String with expiry: the ticket of the player's search, while it lasts (one at a time)."""
    return f"match:player:{{{player_id}}}"


def tournament(tournament_id: str) -> str:
    """String: the serialized Tournament message (`live.tournaments.store`), the tournament's one source
    of truth. A tournament's keys carry the hash tag {tournament_id}."""
    return f"tournament:{{{tournament_id}}}"


def tournament_archived(tournament_id: str) -> str:
    """String with expiry: present once the finished tournament is in PostgreSQL
    (`live.tournaments.archive`), as long as its Redis record is kept."""
    return f"tournament:{{{tournament_id}}}:archived"


def listed_tournaments() -> str:
    """Sorted set: tournament ids by creation time, for ListTournaments (cleaned lazily)."""
    return "tournaments:listed"


def listed_tournaments_of(title: str) -> str:
    """Sorted set: one title's tournament ids by creation time."""
    return f"tournaments:listed:{title}"


def tournament_checks() -> str:
    """Sorted set: tournament ids by when (ms since the epoch) the workers must look at them next:
    registration closing, a round's time running out, a periodic check for a lost signal."""
    return "tournaments:checks"
