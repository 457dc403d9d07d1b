"""The live table: the games in Redis and the one write path, shared by the gateway and the workers.

A move goes through these stages in one direction; each module imports those below it, never one
above (`tests/test_package_imports.py` fails on an import cycle):

1. validate (`live.moves`): one round trip reads the game's snapshot with the caller's check and
   the game's outbox mark, and refuses a stale version, a wrong seat or a reused request id;
2. the rules call (`live.rules`): ApplyAction with every seat's view;
3. plan (`live.clocks`, `live.outbox.Followup`): the next clock entry and what must follow;
4. commit (`live.store`): one script writes the state, log, clock entry and outbox entry, and
   publishes the change, atomically;
5. fan-out: the committer hands the change to its own watchers at once (`live.moves.FanOut`, the
   gateway's `gateway.fanout`); every other gateway gets it published;
6. follow-ups (`live.followups`, `live.outbox`): the players' lists (`live.mygames`, `live.guests`)
   before the mover's reply, the worker tasks (`live.dispatch`) and due time after it; the workers'
   sweep performs what a dead committer left.

`live.table.Table` holds what every stage shares (settings, Redis, the rules services, the store, the
dispatcher); the archive (`live.archive`, in PostgreSQL) sits behind the store, and
`live.archiving` moves a scored game there.
"""
