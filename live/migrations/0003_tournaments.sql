-- Finished tournaments (live/tournaments/archive.py), beside the games they were played with.

-- One row per finished tournament: the whole Tournament message GetTournament serves once its Redis
-- key has expired.
CREATE TABLE tournaments (
    tournament_id text PRIMARY KEY,
    title text NOT NULL,
    format text NOT NULL,                  -- ROUND_ROBIN, SWISS or SINGLE_ELIMINATION
    name text NOT NULL,
    organiser_player_id text NOT NULL,
    rated boolean NOT NULL,
    started_at timestamptz,
    finished_at timestamptz,
    record bytea NOT NULL,                 -- the whole Tournament: settings, entrants, rounds, standings
    archived_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX tournaments_by_title ON tournaments (title, finished_at DESC);

-- Every table of every round: its game (in archived_games once that game is archived) and each
-- seat's result as the tournament counted it.
CREATE TABLE tournament_tables (
    tournament_id text NOT NULL REFERENCES tournaments ON DELETE CASCADE,
    round integer NOT NULL,
    table_number integer NOT NULL,
    game_id text NOT NULL,
    PRIMARY KEY (tournament_id, round, table_number)
);
CREATE INDEX tournament_tables_by_game ON tournament_tables (game_id);

CREATE TABLE tournament_seats (
    tournament_id text NOT NULL,
    round integer NOT NULL,
    table_number integer NOT NULL,
    seat integer NOT NULL,
    player_id text NOT NULL,
    rank integer NOT NULL,
    points double precision NOT NULL,
    score integer NOT NULL,
    forfeited boolean NOT NULL,
    PRIMARY KEY (tournament_id, round, table_number, seat),
    FOREIGN KEY (tournament_id, round, table_number) REFERENCES tournament_tables ON DELETE CASCADE
);

-- The final standings, one row per entrant.
CREATE TABLE tournament_standings (
    tournament_id text NOT NULL REFERENCES tournaments ON DELETE CASCADE,
    place integer NOT NULL,
    player_id text NOT NULL,
    points double precision NOT NULL,
    buchholz double precision NOT NULL,
    sonneborn_berger double precision NOT NULL,
    score_total bigint NOT NULL,
    tiebreak_total bigint NOT NULL,
    games integer NOT NULL,
    byes integer NOT NULL,
    PRIMARY KEY (tournament_id, player_id)
);
CREATE INDEX tournament_standings_by_player ON tournament_standings (player_id);
