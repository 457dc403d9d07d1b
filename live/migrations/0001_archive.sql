-- Finished games moved out of Redis by the archive task (live/archive.py), and the rating history.

-- One row per finished game: everything its read calls serve once its Redis keys have expired.
CREATE TABLE archived_games (
    game_id text PRIMARY KEY,
    title text NOT NULL,
    version integer NOT NULL,              -- the version it ended at
    finished_at timestamptz,
    record bytea NOT NULL,                 -- the whole GameRecord: seats, config, seed, actions, scores
    state bytea NOT NULL,                  -- the final rules State (packed Any)
    meta_record bytea NOT NULL,            -- the GameRecord of its meta (no seed, actions or scores)
    clock bytea NOT NULL,                  -- its TurnClock
    lobby_id text NOT NULL,
    acting text NOT NULL,                  -- the acting seats at the end (comma-separated)
    ranks jsonb NOT NULL,                  -- seat -> final rank
    archived_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX archived_games_by_title ON archived_games (title, finished_at DESC);

-- Who played each archived game, for a player's history.
CREATE TABLE game_players (
    game_id text NOT NULL REFERENCES archived_games ON DELETE CASCADE,
    seat integer NOT NULL,
    player_id text NOT NULL,
    rank integer NOT NULL,
    PRIMARY KEY (game_id, seat)
);
CREATE INDEX game_players_by_player ON game_players (player_id);

-- Each rated player's rating before and after each archived game (openskill mu, sigma, ordinal).
CREATE TABLE rating_history (
    game_id text NOT NULL REFERENCES archived_games ON DELETE CASCADE,
    player_id text NOT NULL,
    title text NOT NULL,
    finished_at timestamptz,
    mu_before double precision NOT NULL,
    sigma_before double precision NOT NULL,
    ordinal_before double precision NOT NULL,
    mu_after double precision NOT NULL,
    sigma_after double precision NOT NULL,
    ordinal_after double precision NOT NULL,
    PRIMARY KEY (game_id, player_id)
);
CREATE INDEX rating_history_by_player ON rating_history (player_id, title, finished_at);
