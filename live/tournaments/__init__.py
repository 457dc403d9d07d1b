"""Tournaments: round-robin, Swiss and single elimination over any title (docs/tournaments.md).

The pure parts have no Redis and no protobuf: `pairing` (what a round is), `seeding`, `swiss`,
`roundrobin`, `elimination` and `standings`. `progress` applies them to a stored `Tournament`
message (still pure); `store` keeps that message in Redis, `rounds` drives a tournament from round to
round with ordinary games (`live.games`), and `archive` copies a finished one to PostgreSQL.
"""
