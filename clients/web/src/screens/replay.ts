// A finished game's replay, step by step (GetReplayStep): step 0 is the game as set up, step n the game
// after its record's n-th entry. Each step shows the board as it was then (the reader's own seat's view
// if they played the game, else the spectators'; no legal actions), the move that led there with its
// label in the reader's language (an undo or a takeback said as such, with the version it went back
// to), what happened in that step and who was to act. First, previous, next, last, a slider, the arrow
// keys, Home and End and the list of moves step through it. A step is fetched when first shown and kept;
// its neighbours are fetched ahead, so stepping is instant. The gateway checks the whole record on
// demand (ReplayGame).
import { timestampDate } from "@bufbuild/protobuf/wkt";
import { Code, ConnectError } from "@connectrpc/connect";
import { games } from "../api";
import { BOARDS } from "../boards/index";
import { loadCatalog } from "../catalogs";
import { loadTitleData, titleData } from "../data";
import { button, el, say, show } from "../dom";
import { render, t, tag } from "../i18n";
import { unpacked } from "../titles";
import { tree } from "../tree";
import type { GameSeat, GetReplayStepResponse, LoggedAction } from "../gen/boardgame/gateway/v1/gateway_pb";
import { backoff, failure, go, guarded, loadTitles, pause, scoreLines, seatName, titleName, type Screen } from "./common";

const RATE_LIMITED_TRIES = 6; // a step refused for the rate limit is asked for again, after a pause

/** What an undo or a takeback did, in the reader's language. */
function takenBack(player: string, returnedTo: bigint, takeback: boolean): string {
  const version = String(returnedTo);
  return takeback
    ? t("web.replay.takeback", "{player} took back their decisions, the others accepting: back to version {version}", { player, version })
    : t("web.replay.undo", "{player} took back their last decision: back to version {version}", { player, version });
}

export async function replayScreen(screen: Screen, route: string): Promise<void> {
  const [gameId, wanted] = route.split("/");
  await loadTitles();
  if (screen.signal.aborted) return; // left (or signed out) meanwhile
  const record = (await games.getGameRecord({ gameId })).record;
  if (!record || screen.signal.aborted) return;
  const title = record.title;
  await Promise.all([loadTitleData(title), loadCatalog(title)]);
  if (screen.signal.aborted) return;
  const section = show("replay");
  const entries = record.actions;
  const last = entries.length;
  const clamp = (step: number) => Math.min(last, Math.max(0, Math.trunc(step) || 0));
  let at = clamp(Number(wanted ?? 0));
  const seat = (number: number): GameSeat | undefined => record.seats.find((s) => s.seat === number);
  const who = (number: number) => seatName(seat(number));

  // Each step asked for once, kept while the screen is open; a refusal is asked for again next time.
  const kept = new Map<number, Promise<GetReplayStepResponse>>();
  const ask = async (step: number): Promise<GetReplayStepResponse> => {
    for (let failures = 1; ; failures++) {
      try {
        return await games.getReplayStep({ gameId, step }, { signal: screen.signal });
      } catch (error) {
        const limited = error instanceof ConnectError && error.code === Code.ResourceExhausted;
        if (!limited || failures >= RATE_LIMITED_TRIES || screen.signal.aborted) throw error;
        await pause(backoff(failures, 250, 2000), screen.signal);
      }
    }
  };
  const fetchStep = (step: number): Promise<GetReplayStepResponse> => {
    let found = kept.get(step);
    if (!found) {
      found = ask(step);
      kept.set(step, found);
      found.catch(() => kept.delete(step));
    }
    return found;
  };

  const position = el("p", { id: "replay-position" });
  const board = el("div", { id: "replay-board" });
  const detail = el("div", { id: "replay-step" });
  const events = el("ol", { id: "replay-events", class: "events" });
  const seats = el("ol", { id: "replay-seats", class: "seat-list" });
  const details = el("details", { id: "replay-details" }, el("summary", {}, t("web.replay.details", "Details: the view as a tree")));
  const slider = el("input", { id: "replay-slider", type: "range", min: "0", max: String(last), value: String(at), "aria-label": t("web.replay.slider", "Step") });
  // A move's label comes with its step: until then the list names who moved.
  const entryText = (entry: LoggedAction, step: number) => entry.returnedTo !== undefined
    ? `${step}. ${takenBack(who(entry.seat), entry.returnedTo, entry.takeback)}`
    : `${step}. ${who(entry.seat)}`;
  const moves = el("ol", { id: "replay-moves", class: "moves", start: "0" },
    el("li", { "data-index": "0" }, button(t("web.replay.start_item", "0. the game as set up"), () => goTo(0))),
    ...entries.map((entry, index) => el("li", { "data-index": String(index + 1) },
      button(entryText(entry, index + 1), () => goTo(index + 1)))));

  const positionText = (step: number) => step === 0
    ? t("web.replay.start", "the game as set up, before any move (step 0 of {total})", { total: last })
    : t("web.replay.position", "move {n} of {total}: version {version}, seat {seat} ({player})", {
      n: step, total: last, version: String(entries[step - 1].version), seat: entries[step - 1].seat, player: who(entries[step - 1].seat),
    });

  /** The move that led to a step, in the reader's language. */
  const moveText = (reply: GetReplayStepResponse): string => {
    const move = reply.move;
    if (!move) return t("web.replay.setup", "The game as set up: no move yet.");
    if (move.returnedTo !== undefined) return takenBack(who(move.seat), move.returnedTo, move.takeback);
    return t("web.replay.moved", "{player}: {label}", { player: who(move.seat), label: render(move.message, move.label, title) });
  };

  const drawStep = (reply: GetReplayStepResponse) => {
    const game = reply.game;
    const view = unpacked(game?.view);
    const draw = BOARDS[title];
    const data = titleData(title);
    const version = String(game?.version ?? 0n);
    section.dataset.at = String(reply.step);
    section.dataset.version = version;
    board.removeAttribute("data-loading");
    board.replaceChildren(el("div", { id: "replay-board-drawn", "data-step": String(reply.step), "data-version": version },
      draw && view && data ? draw(view, data, []) : view !== null ? tree(view) : el("p", { class: "muted" }, t("web.replay.no_view", "This step's view could not be read."))));
    const move = reply.move;
    const kind = !move ? "start" : move.returnedTo === undefined ? "action" : move.takeback ? "takeback" : "undo";
    detail.replaceChildren(el("p", { id: "replay-move", class: `action-line ${kind}` }, moveText(reply)));
    Object.assign(detail.dataset, { kind, step: String(reply.step), version, seat: move ? String(move.seat) : "", action: JSON.stringify(move?.action ? unpacked(move.action) : null) });
    events.replaceChildren(...reply.events.map((event) => el("li", {}, render(event.message, event.text, title))));
    if (!reply.events.length) events.append(el("li", { class: "muted" }, t("web.replay.no_events", "Nothing to show.")));
    seats.replaceChildren(...(game?.seats ?? []).map((s) => {
      const acting = game?.actingSeats.includes(s.seat) ?? false;
      return el("li", { class: [acting ? "acting" : "", s.seat === game?.seat ? "me" : ""].join(" ").trim(), "data-seat": String(s.seat) },
        el("span", { class: "seat-number" }, String(s.seat)),
        el("span", { class: "seat-name" }, seatName(s)),
        acting ? el("span", { class: "tag" }, t("web.replay.to_act", "to act")) : null);
    }));
    details.replaceChildren(details.firstElementChild as HTMLElement, el("div", { id: "replay-tree" }, view !== null ? tree(view) : ""));
    if (move && move.returnedTo === undefined) {
      const item = moves.querySelector(`li[data-index="${reply.step}"] button`);
      if (item) item.textContent = `${reply.step}. ${who(move.seat)}: ${render(move.message, move.label, title)}`;
    }
  };

  const goTo = (step: number) => {
    at = clamp(step);
    slider.value = String(at);
    position.textContent = positionText(at);
    for (const item of moves.children) item.classList.toggle("current", item.getAttribute("data-index") === String(at));
    moves.children[at]?.scrollIntoView({ block: "nearest" });
    history.replaceState(null, "", `#/replay/${gameId}/${at}`);
    const asked = at;
    const waiting = !kept.has(asked);
    if (waiting) board.setAttribute("data-loading", "");
    fetchStep(asked).then(
      (reply) => { if (asked === at && !screen.signal.aborted) drawStep(reply); },
      (error) => { if (asked === at && !screen.signal.aborted) say(failure(error)); },
    );
    for (const near of [asked + 1, asked - 1]) if (near >= 0 && near <= last) fetchStep(near).catch(() => undefined);
  };
  slider.addEventListener("input", () => goTo(Number(slider.value)));
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
      el("h2", {}, t("web.replay.heading", "Replay of {title}", { title: titleName(title) })),
      el("div", { class: "row" }, button(t("web.replay.back", "My games"), () => go("games"), { id: "replay-back" }))),
    el("p", { class: "muted" }, t("web.replay.facts", "{moves, plural, one {# move} other {# moves}}; started {started}; seed SHA-256 {seed}", {
      moves: last, started: started?.toLocaleString(tag()) ?? "?", seed: record.seedSha256.slice(0, 12),
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
        el("h3", {}, t("web.replay.events", "What happened")), events,
        el("h3", {}, t("web.replay.seats", "Seats")), seats,
        el("h3", {}, t("web.replay.moves", "Moves")), moves,
        scores.length ? el("h3", {}, t("web.replay.scores", "Final scores")) : null,
        scores.length ? el("ol", { id: "replay-scores", class: "seat-list" }, ...scores.map((s) =>
          el("li", {}, t("web.replay.score", "{player}: {total, plural, one {# point} other {# points}}, rank {rank}", { player: who(s.seat), total: s.total, rank: s.rank }),
            scoreLines(s.items, title)))) : null,
        el("h3", {}, t("web.replay.check_heading", "Check")),
        el("p", {}, button(t("web.replay.verify", "Check the record"), () => guarded(async () => {
          const result = await games.replayGame({ gameId });
          check.textContent = result.consistent
            ? t("web.replay.consistent", "consistent ({n, plural, one {# action} other {# actions}})", { n: result.actionsReplayed })
            : t("web.replay.mismatch", "mismatch: {what}", { what: result.mismatch });
        }), { id: "replay-verify" }), " ", check),
        el("p", { class: "muted small" }, t("web.replay.keys", "Keys: ← → step, Home and End jump.")))),
    details,
  );
  goTo(at);
}
