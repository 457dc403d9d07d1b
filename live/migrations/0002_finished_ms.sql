-- Each archived game's finish time in ms since the epoch, as the scoring worker scores it in the
-- histories' sorted sets (live/history.py), so that a history's older pages are read by an index in
-- the same order as its newer ones in Redis: finish time, then game id in byte order.
ALTER TABLE archived_games ADD COLUMN finished_ms bigint;
UPDATE archived_games SET finished_ms = coalesce(floor(extract(epoch FROM finished_at) * 1000), 0)::bigint;
ALTER TABLE archived_games ALTER COLUMN finished_ms SET NOT NULL;
CREATE INDEX archived_games_title_history
    ON archived_games (title, finished_ms DESC, (game_id COLLATE "C") DESC);
