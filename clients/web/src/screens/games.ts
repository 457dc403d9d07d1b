// My games (ListMyGames): live ones first, those where it is my turn first, then by last move; then
// finished ones with their results. A row opens the game (or its replay); the list follows the inbox.
import { timestampDate } from "@bufbuild/protobuf/wkt";
import { games } from "../api";
import { ago, button, card, el, show, until } from "../dom";
import { list, t, tag } from "../i18n";
import { GameStatus, type MyGame } from "../gen/boardgame/gateway/v1/gateway_pb";
import { every, go, guarded, loadTitles, seatName, titleName, type Screen } from "./common";
import { onInbox } from "./inbox";

const PAGE = 25;
const MOST_PER_PAGE = 100; // ListMyGames' largest page
const REFRESH_MS = 15_000;

function turn(game: MyGame): HTMLElement {
  if (game.status === GameStatus.FINISHED) {
    const rating = game.ratingAfter || game.ratingBefore
      ? t("web.games.rating", ", rating {before} → {after}", { before: game.ratingBefore.toFixed(1), after: game.ratingAfter.toFixed(1) })
      : "";
    return el("span", { class: "badge done" }, game.myRank
      ? t("web.games.ranked", "Over: you ranked {rank}{rating}", { rank: game.myRank, rating })
      : t("web.games.over", "Over"));
  }
  if (game.myTurn) {
    const deadline = game.myDeadline ? timestampDate(game.myDeadline) : undefined;
    return el("span", { class: "badge mine" }, deadline
      ? t("web.games.your_turn_until", "Your turn (time runs out {when})", { when: until(deadline) })
      : t("web.games.your_turn", "Your turn"));
  }
  const names = list(game.actingSeats.map((s) => seatName(game.seats.find((seat) => seat.seat === s))));
  return el("span", { class: "badge" }, t("web.games.their_turn", "{names} to play", { names }));
}

function row(game: MyGame): HTMLElement {
  const finished = game.status === GameStatus.FINISHED;
  const last = game.lastMoveAt ? timestampDate(game.lastMoveAt) : undefined;
  const others = list(game.seats.filter((seat) => !game.mySeats.includes(seat.seat)).map((seat) => seatName(seat)));
  const open = () => go(`game/${game.gameId}`);
  const tr = el("tr", {
    class: `my-game${game.myTurn ? " my-turn" : ""}${finished ? " finished" : ""}`,
    "data-game-id": game.gameId,
    "data-my-turn": String(game.myTurn),
    "data-status": finished ? "finished" : "active",
  },
  el("td", {}, turn(game)),
  el("td", { class: "game-title" }, titleName(game.title)),
  el("td", {}, others || t("web.games.alone", "only you")),
  el("td", { title: last?.toLocaleString(tag()) ?? "" }, ago(last)),
  el("td", { class: "buttons" },
    button(finished ? t("web.games.view", "View") : t("web.games.open", "Open"), open, { class: game.myTurn ? "open primary" : "open" }),
    finished ? button(t("web.games.replay", "Replay"), () => go(`replay/${game.gameId}`), { class: "replay" }) : null));
  tr.addEventListener("dblclick", open);
  return tr;
}

export async function gamesScreen(screen: Screen): Promise<void> {
  await loadTitles();
  if (screen.signal.aborted) return; // left (or signed out) meanwhile
  const section = show("games");
  const body = el("tbody", {});
  const more = button(t("web.games.more", "More"), () => guarded(() => page(false)), { id: "my-games-more" });
  let token = "";
  let shown = 0;
  const page = async (first: boolean) => {
    const reply = await games.listMyGames({ pageSize: first ? Math.min(MOST_PER_PAGE, Math.max(PAGE, shown)) : PAGE, pageToken: first ? "" : token });
    if (screen.signal.aborted) return;
    if (first) body.replaceChildren();
    body.append(...reply.games.map(row));
    shown = body.children.length;
    token = reply.nextPageToken;
    more.hidden = !token;
    if (!shown)
      body.append(el("tr", { class: "empty" }, el("td", { colspan: "5" }, t("web.games.none", "No games yet: join a lobby or find a match."))));
  };
  section.replaceChildren(card(t("web.games.heading", "My games"),
    el("p", { class: "muted" }, t("web.games.help", "Games where it is your turn come first.")),
    el("div", { class: "table-wrap" }, el("table", { id: "my-games", class: "list" },
      el("thead", {}, el("tr", {},
        el("th", {}, t("web.games.turn", "Turn")), el("th", {}, t("web.games.title", "Game")),
        el("th", {}, t("web.games.players", "Others")), el("th", {}, t("web.games.last_move", "Last move")), el("th", {}, ""))),
      body)),
    more));
  await page(true);
  onInbox(() => void guarded(() => page(true)), screen.signal);
  every(REFRESH_MS, screen.signal, () => page(true));
}
