// Playing and spectating: the drawn board (its marked places take their actions on a click), the seats
// and who acts (with their score lines once the game is over), the labelled legal actions, the events,
// and the view as a tree behind "Details"; a seat's Undo and the takebacks (undo.ts). Labels, events and
// score lines are drawn from their Texts with the title's catalog in the reader's language (English as
// sent when it has none).
import { timestampDate } from "@bufbuild/protobuf/wkt";
import { Code, ConnectError } from "@connectrpc/connect";
import { games } from "../api";
import { BOARDS } from "../boards/index";
import { loadCatalog } from "../catalogs";
import { loadTitleData, titleData } from "../data";
import { button, el, say, show, until } from "../dom";
import { list, render, t } from "../i18n";
import { unpacked } from "../titles";
import { tree } from "../tree";
import { GameStatus, TakebackStatus, type GameEvent, type GameView } from "../gen/boardgame/gateway/v1/gateway_pb";
import { backoff, failure, go, loadTitles, pause, scoreLines, seatName, titleName, type Screen } from "./common";
import { mayUndo, noteTakeback, takebackPanel, tick, undo, undoPart, type Table } from "./undo";

const KEPT_EVENTS = 200;
let detailsOpen = false; // whether the view's tree is shown, kept from one game to the next

function section(): HTMLElement {
  return document.getElementById("game") as HTMLElement;
}

function seatsPanel(game: GameView): HTMLElement {
  return el("ol", { id: "seats", class: "seat-list" }, ...game.seats.map((seat) => {
    const acting = game.actingSeats.includes(seat.seat);
    const score = game.scores?.scores.find((s) => s.seat === seat.seat);
    return el("li", { class: [acting ? "acting" : "", seat.seat === game.seat ? "me" : ""].join(" ").trim(), "data-seat": String(seat.seat) },
      el("span", { class: "seat-number" }, String(seat.seat)),
      el("span", { class: "seat-name" }, seatName(seat)),
      acting ? el("span", { class: "tag" }, t("web.play.to_act", "to act")) : null,
      score ? el("span", { class: "tag score" }, t("web.play.score", "{total, plural, one {# point} other {# points}}, rank {rank}", { total: score.total, rank: score.rank })) : null,
      score ? scoreLines(score.items, game.title) : null);
  }));
}

function headline(game: GameView): string {
  const finished = game.status === GameStatus.FINISHED;
  const who = game.seat === undefined ? t("web.play.spectator", "you watch") : t("web.play.your_seat", "you play seat {seat}", { seat: game.seat });
  return finished
    ? t("web.play.headline_finished", "{title}: over after {version} changes; {who}", { title: titleName(game.title), version: String(game.version), who })
    : t("web.play.headline", "{title}: version {version}; {who}", { title: titleName(game.title), version: String(game.version), who });
}

function turnNote(game: GameView): string {
  if (game.status === GameStatus.FINISHED) return t("web.play.over", "The game is over.");
  const mine = game.seat !== undefined && game.actingSeats.includes(game.seat);
  const deadline = game.deadline ? timestampDate(game.deadline) : undefined;
  const names = list(game.actingSeats.map((s) => seatName(game.seats.find((seat) => seat.seat === s))));
  const base = mine ? t("web.play.your_turn", "Your turn: pick an action, or click a marked place on the board.") : t("web.play.waiting", "Waiting for {names}.", { names });
  return deadline ? `${base} ${t("web.play.deadline", "Time runs out {when}.", { when: until(deadline) })}` : base;
}

/** A legal action's label in the reader's language. */
function label(game: GameView, index: number): string {
  const action = game.legalActions[index];
  return render(action.message, action.label, game.title);
}

/** An event's line in the reader's language. */
function eventLine(event: GameEvent, title: string): HTMLElement {
  return el("li", {}, render(event.message, event.text, title));
}

function draw(table: Table, log: HTMLElement): void {
  const game = table.game;
  if (!game) return;
  const screen = section();
  const focused = screen.contains(document.activeElement) ? document.activeElement?.id : ""; // kept across the redraw
  const view = unpacked(game.view);
  const finished = game.status === GameStatus.FINISHED;
  screen.dataset.version = String(game.version);
  screen.dataset.status = finished ? "finished" : "active";
  screen.dataset.acting = game.actingSeats.join(" ");
  const draw = BOARDS[game.title];
  const data = titleData(game.title);
  const legal = game.legalActions.map((l, index) => ({ index, action: unpacked(l.action), label: label(game, index) }));
  const board = el("div", { id: "board" }, draw && view && data ? draw(view, data, legal) : el("p", { class: "muted" }, t("web.play.no_board", "No drawn board for this game: open Details for the view.")));
  boardActs(board, table);
  const details = el("details", { id: "view-details" }, el("summary", {}, t("web.play.details", "Details: the view as a tree")),
    el("div", { id: "tree" }, view !== null ? tree(view) : ""));
  details.open = detailsOpen;
  details.addEventListener("toggle", () => { detailsOpen = details.open; });
  screen.replaceChildren(
    el("div", { class: "play-head" },
      el("h2", {}, headline(game)),
      el("div", { class: "row" },
        finished ? button(t("web.play.replay", "Replay"), () => go(`replay/${game.gameId}`), { id: "open-replay", class: "primary" }) : null,
        button(t("web.play.back", "My games"), () => go("games"), { id: "back" }))),
    el("p", { id: "turn", class: game.seat !== undefined && game.actingSeats.includes(game.seat) ? "turn mine" : "turn" }, turnNote(game)),
    takebackPanel(table),
    el("div", { class: "play" },
      board,
      el("aside", { class: "play-side" },
        el("h3", {}, t("web.play.seats", "Seats")),
        seatsPanel(game),
        el("h3", {}, t("web.play.actions", "Your actions")),
        game.legalActions.length
          ? el("ol", { id: "actions" }, ...game.legalActions.map((_, index) =>
            el("li", {}, button(label(game, index), () => submit(table, index), { class: "action" }))))
          : el("ol", { id: "actions", class: "empty" }, el("li", { class: "muted" }, t("web.play.no_actions", "None now."))),
        undoPart(table, game),
        el("h3", {}, t("web.play.events", "Events")),
        log)),
    details,
  );
  if (focused) document.getElementById(focused)?.focus();
}

/** Clicking a marked place on the board (or Enter or Space on it) takes its action; where several
 * apply, a small menu of their labels offers the choice. */
function boardActs(board: HTMLElement, table: Table): void {
  const game = table.game as GameView;
  const take = (target: EventTarget | null) => {
    const place = (target as Element | null)?.closest?.("[data-actions]");
    if (!place) return;
    const indices = (place.getAttribute("data-actions") ?? "").split(" ").map(Number);
    board.querySelector("#board-choice")?.remove();
    if (indices.length === 1) return void submit(table, indices[0]);
    board.prepend(el("div", { id: "board-choice", role: "menu" }, ...indices.map((index) =>
      button(label(game, index), () => submit(table, index), { class: "choice", role: "menuitem" })),
    button(t("web.play.cancel", "Cancel"), () => board.querySelector("#board-choice")?.remove(), { class: "cancel" })));
    (board.querySelector("#board-choice button") as HTMLButtonElement | null)?.focus();
  };
  board.addEventListener("click", (event) => take(event.target));
  board.addEventListener("keydown", (event) => {
    if (event.key !== "Enter" && event.key !== " ") return;
    event.preventDefault();
    take(event.target);
  });
}

async function submit(table: Table, index: number): Promise<void> {
  const game = table.game as GameView;
  const action = game.legalActions[index];
  try {
    const reply = await games.submitAction({
      gameId: game.gameId, action: action.action, expectedVersion: game.version, requestId: crypto.randomUUID(),
    });
    table.show(reply.game);
  } catch (error) {
    if (error instanceof ConnectError && error.code === Code.Aborted) {
      say(t("web.play.stale", "the game moved on; the view is refreshed"));
      table.show((await games.getGame({ gameId: game.gameId })).game);
    } else say(failure(error));
  }
}

/** The key U takes back the seat's last decision (not while typing in a field). */
function undoKey(table: Table, signal: AbortSignal): void {
  const onKey = (event: KeyboardEvent) => {
    if (event.key.toLowerCase() !== "u" || event.ctrlKey || event.metaKey || event.altKey || event.repeat) return;
    if ((event.target as Element | null)?.closest?.("input, select, textarea, [contenteditable]")) return;
    if (!table.game || !mayUndo(table.game)) return;
    event.preventDefault();
    void undo(table);
  };
  document.addEventListener("keydown", onKey);
  signal.addEventListener("abort", () => document.removeEventListener("keydown", onKey), { once: true });
}

/** Watch a game: its view after each change, reconnecting from the last version seen. */
export async function playScreen(screen: Screen, gameId: string): Promise<void> {
  await loadTitles();
  if (screen.signal.aborted) return; // left (or signed out) meanwhile
  const shown = show("game");
  shown.dataset.gameId = gameId;
  delete shown.dataset.version;
  shown.append(el("p", { class: "muted" }, t("web.play.loading", "Opening the game…")));
  let version = 0;
  let title = "";
  let failures = 0;
  const events: GameEvent[] = []; // newest first
  const log = el("ol", { id: "events", class: "events" });
  const table: Table = {
    busy: false,
    show(game) {
      if (!game || (table.game && game.version < table.game.version)) return;
      const pending = game.takeback?.status === TakebackStatus.PENDING ? game.takeback : undefined;
      // the same version again (a move's reply and the stream's change) is drawn once, unless it tells
      // of another takeback
      const same = table.game?.version === game.version && table.takeback?.takebackId === pending?.takebackId;
      table.game = game;
      table.takeback = pending;
      if (!same) draw(table, log);
    },
    redraw: () => draw(table, log),
  };
  undoKey(table, screen.signal);
  const timer = setInterval(() => tick(table), 1000);
  screen.signal.addEventListener("abort", () => clearInterval(timer), { once: true });
  screen.redraw = async () => {
    await loadCatalog(title);
    if (screen.signal.aborted) return;
    log.replaceChildren(...events.map((event) => eventLine(event, title)));
    draw(table, log);
  };
  while (!screen.signal.aborted) {
    try {
      for await (const reply of games.watchGame({ gameId, fromVersion: BigInt(version) }, { signal: screen.signal })) {
        failures = 0;
        if (reply.game) {
          title = reply.game.title;
          await Promise.all([loadTitleData(title), loadCatalog(title)]);
          if (screen.signal.aborted) return;
        }
        for (const event of reply.events) {
          events.unshift(event);
          log.prepend(eventLine(event, title));
        }
        events.splice(KEPT_EVENTS);
        while (log.children.length > KEPT_EVENTS) log.lastElementChild?.remove();
        if (reply.game && (!table.game || reply.game.version >= table.game.version)) {
          table.show(reply.game);
          version = Number(reply.game.version);
        }
        if (reply.takeback) {
          noteTakeback(table, reply.takeback);
          table.redraw();
        }
      }
      if (table.game?.status === GameStatus.FINISHED) return;
    } catch (error) {
      if (screen.signal.aborted) return;
      failures += 1;
      if (error instanceof ConnectError && (error.code === Code.NotFound || error.code === Code.PermissionDenied || error.code === Code.InvalidArgument))
        return say(failure(error));
      say(t("web.play.reconnecting", "watch stream lost ({error}); reconnecting from version {version}", { error: failure(error), version }));
    }
    await pause(backoff(failures), screen.signal);
  }
}
