// A finished game's replay: its record's moves stepped through (first, previous, next, last, a slider,
// the arrow keys, a click in the list of moves), each move's seat and action; the board drawn after the
// game's last change; the gateway's own check of the record (ReplayGame).
//
// The gateway's API gives a finished game's view after its last change only (GetGame, WatchGame); no
// call returns the view at an earlier version, and the browser has no rules to re-derive one. So the
// board is drawn at the last move, and the other moves say so instead of showing a board.
import type { JsonValue } from "@bufbuild/protobuf";
import { timestampDate } from "@bufbuild/protobuf/wkt";
import { games } from "../api";
import { BOARDS } from "../boards/index";
import { loadCatalog } from "../catalogs";
import { loadTitleData, titleData } from "../data";
import { button, el, show } from "../dom";
import { t, tag } from "../i18n";
import { unpacked } from "../titles";
import { brief, tree } from "../tree";
import type { GameView } from "../gen/boardgame/gateway/v1/gateway_pb";
import { go, guarded, loadTitles, scoreLines, seatName, titleName, type Screen } from "./common";

function boardAtEnd(view: GameView | undefined): HTMLElement {
  const json = unpacked(view?.view);
  const draw = view ? BOARDS[view.title] : undefined;
  const data = view ? titleData(view.title) : null;
  if (!view || !json) return el("p", { class: "muted" }, t("web.replay.no_view", "The game's final view could not be read."));
  return el("div", { id: "replay-board-drawn", "data-version": String(view.version) },
    draw && data ? draw(json, data, []) : tree(json),
    el("p", { class: "muted small" }, t("web.replay.final_board", "The board after the game's last change (version {version}).", { version: String(view.version) })));
}

export async function replayScreen(screen: Screen, route: string): Promise<void> {
  const [gameId, wanted] = route.split("/");
  await loadTitles();
  if (screen.signal.aborted) return; // left (or signed out) meanwhile
  const record = (await games.getGameRecord({ gameId })).record;
  if (!record || screen.signal.aborted) return;
  const [final] = await Promise.all([games.getGame({ gameId }).then((reply) => reply.game), loadTitleData(record.title), loadCatalog(record.title)]);
  if (screen.signal.aborted) return;
  const section = show("replay");
  const steps = record.actions;
  const actions = steps.map((step) => unpacked(step.action));
  const last = Math.max(0, steps.length - 1);
  let at = Math.min(last, Math.max(0, Number(wanted ?? 1) - 1 || 0));
  const who = (seat: number) => seatName(record.seats.find((s) => s.seat === seat));

  const position = el("p", { id: "replay-position" });
  const detail = el("div", { id: "replay-step" });
  const board = el("div", { id: "replay-board" });
  const slider = el("input", { id: "replay-slider", type: "range", min: "1", max: String(Math.max(1, steps.length)), value: String(at + 1), "aria-label": t("web.replay.slider", "Move") });
  const moves = el("ol", { id: "replay-moves", class: "moves" }, ...steps.map((step, index) =>
    el("li", { "data-index": String(index) }, button(`${index + 1}. ${who(step.seat)}: ${actions[index] !== null ? brief(actions[index] as JsonValue) : "?"}`, () => goTo(index)))));
  const endBoard = boardAtEnd(final);
  const noBoard = el("p", { id: "replay-no-board", class: "note" },
    t("web.replay.no_board", "The gateway's API gives a finished game's board after its last move only, not at earlier moves: step to the last move to see it."));

  const draw = () => {
    const step = steps[at];
    section.dataset.at = String(at + 1);
    slider.value = String(at + 1);
    position.textContent = step
      ? t("web.replay.position", "move {n} of {total}: version {version}, seat {seat} ({player})", {
        n: at + 1, total: steps.length, version: String(step.version), seat: step.seat, player: who(step.seat),
      })
      : t("web.replay.no_moves", "This game has no moves.");
    const action = actions[at];
    detail.replaceChildren(...step ? [
      el("p", { id: "replay-action", class: "action-line" }, action !== null ? brief(action) : t("web.replay.unknown_action", "an action this page cannot read")),
      action !== null ? tree(action, t("web.replay.action", "action")) : "",
    ] : []);
    if (step) {
      detail.dataset.version = String(step.version);
      detail.dataset.seat = String(step.seat);
      detail.dataset.action = JSON.stringify(action);
    }
    board.replaceChildren(at === last ? endBoard : noBoard);
    for (const item of moves.children) item.classList.toggle("current", item.getAttribute("data-index") === String(at));
    moves.children[at]?.scrollIntoView({ block: "nearest" });
    history.replaceState(null, "", `#/replay/${gameId}/${at + 1}`);
  };
  const goTo = (index: number) => {
    at = Math.min(last, Math.max(0, index));
    draw();
  };
  slider.addEventListener("input", () => goTo(Number(slider.value) - 1));
  document.addEventListener("keydown", (event) => {
    const target = event.target as HTMLElement | null;
    if (target?.closest("input, select, textarea") || event.altKey || event.ctrlKey || event.metaKey) return;
    const to = { ArrowLeft: at - 1, ArrowRight: at + 1, Home: 0, End: last }[event.key];
    if (to === undefined) return;
    event.preventDefault();
    goTo(to);
  }, { signal: screen.signal });

  const check = el("span", { id: "replay-check" });
  const scores = record.scores?.scores ?? [];
  const started = record.startedAt ? timestampDate(record.startedAt) : undefined;
  section.replaceChildren(
    el("div", { class: "play-head" },
      el("h2", {}, t("web.replay.heading", "Replay of {title}", { title: titleName(record.title) })),
      el("div", { class: "row" }, button(t("web.replay.back", "My games"), () => go("games"), { id: "replay-back" }))),
    el("p", { class: "muted" }, t("web.replay.facts", "{moves, plural, one {# move} other {# moves}}; started {started}; seed SHA-256 {seed}", {
      moves: steps.length, started: started?.toLocaleString(tag()) ?? "?", seed: record.seedSha256.slice(0, 12),
    })),
    el("div", { class: "replay-controls" },
      button(t("web.replay.first", "« First"), () => goTo(0), { id: "replay-first" }),
      button(t("web.replay.previous", "◀ Previous"), () => goTo(at - 1), { id: "replay-prev" }),
      slider,
      button(t("web.replay.next", "Next ▶"), () => goTo(at + 1), { id: "replay-next" }),
      button(t("web.replay.last", "Last »"), () => goTo(last), { id: "replay-last" })),
    position,
    el("div", { class: "play" },
      board,
      el("aside", { class: "play-side" },
        el("h3", {}, t("web.replay.this_move", "This move")), detail,
        el("h3", {}, t("web.replay.moves", "Moves")), moves,
        scores.length ? el("h3", {}, t("web.replay.scores", "Final scores")) : null,
        scores.length ? el("ol", { id: "replay-scores", class: "seat-list" }, ...scores.map((s) =>
          el("li", {}, t("web.replay.score", "{player}: {total, plural, one {# point} other {# points}}, rank {rank}", { player: who(s.seat), total: s.total, rank: s.rank }),
            scoreLines(s.items, record.title)))) : null,
        el("h3", {}, t("web.replay.check_heading", "Check")),
        el("p", {}, button(t("web.replay.verify", "Check the record"), () => guarded(async () => {
          const result = await games.replayGame({ gameId });
          check.textContent = result.consistent
            ? t("web.replay.consistent", "consistent ({n, plural, one {# action} other {# actions}})", { n: result.actionsReplayed })
            : t("web.replay.mismatch", "mismatch: {what}", { what: result.mismatch });
        }), { id: "replay-verify" }), " ", check),
        el("p", { class: "muted small" }, t("web.replay.keys", "Keys: ← → step, Home and End jump.")))),
  );
  draw();
}
