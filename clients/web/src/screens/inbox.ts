// The inbox (WatchInbox): one stream while signed in, from the oldest event kept, resumed from the last
// event received when it ends. The header counts the unread events; the inbox screen lists them,
// newest first, each with what it leads to (the game, the lobby to join, the leaderboard, a takeback
// to answer, the tournament and its table).
//
// The API has no call to mark an event read or dismiss it: "read" is this browser's own note (the
// newest event id the player has seen, kept in its storage per player).
import { timestampDate } from "@bufbuild/protobuf/wkt";
import { Code, ConnectError } from "@connectrpc/connect";
import { games, lobbies } from "../api";
import { ago, button, card, el, say, show, until } from "../dom";
import { t, tag } from "../i18n";
import { InboxEventKind, InboxEventKindSchema, TakebackStatus, type InboxEvent } from "../gen/boardgame/gateway/v1/gateway_pb";
import { account, backoff, failure, go, guarded, loadTitles, pause, titleName, type Screen } from "./common";
import { refusalText } from "./undo";

const KEPT = 200; // as many as the gateway keeps per player
const READ = "bg-inbox-read:";

const events: InboxEvent[] = []; // oldest first
const answered = new Map<string, string>(); // takeback id -> what answering it from here came to
let redraw: (() => void) | null = null; // the inbox screen's list, while it is shown
const listeners = new Set<(event: InboxEvent) => void>();
let stream: AbortController | null = null;

function order(id: string): [number, number] {
  const [ms, seq] = id.split("-").map(Number);
  return [ms || 0, seq || 0];
}

function newer(a: string, b: string): boolean {
  const [x, y] = [order(a), order(b)];
  return x[0] > y[0] || (x[0] === y[0] && x[1] > y[1]);
}

function readUpTo(): string {
  return localStorage.getItem(READ + (account.player?.playerId ?? "")) ?? "0-0";
}

function isUnread(event: InboxEvent): boolean {
  return newer(event.eventId, readUpTo());
}

/** The events the player has not marked read. */
export function unread(): number {
  return events.filter(isUnread).length;
}

function markAllRead(): void {
  const newest = events[events.length - 1];
  if (newest) localStorage.setItem(READ + (account.player?.playerId ?? ""), newest.eventId);
  badge();
}

/** The header's count of unread events (drawn again with the header). */
export function badge(): void {
  const count = unread();
  const shown = document.getElementById("inbox-unread");
  if (!shown) return;
  shown.textContent = count ? String(count) : "";
  shown.hidden = !count;
  shown.title = t("web.inbox.unread", "{n} unread", { n: count });
}

/** Call `listener` with each new event until `signal` aborts. */
export function onInbox(listener: (event: InboxEvent) => void, signal: AbortSignal): void {
  listeners.add(listener);
  signal.addEventListener("abort", () => listeners.delete(listener), { once: true });
}

/** Follow the signed-in player's inbox until `stopInbox`. */
export function startInbox(): void {
  stopInbox();
  events.length = 0;
  const controller = (stream = new AbortController());
  void (async () => {
    let failures = 0;
    let from = "0-0"; // every event kept
    while (!controller.signal.aborted) {
      try {
        for await (const reply of games.watchInbox({ fromEventId: from }, { signal: controller.signal })) {
          failures = 0;
          const event = reply.event;
          if (!event) continue;
          from = event.eventId;
          events.push(event);
          if (events.length > KEPT) events.shift();
          badge();
          for (const listener of listeners) listener(event);
        }
      } catch (error) {
        if (controller.signal.aborted) return;
        if (error instanceof ConnectError && error.code === Code.Unauthenticated) return say(failure(error));
        failures += 1;
      }
      await pause(backoff(failures, 1000), controller.signal);
    }
  })();
}

export function stopInbox(): void {
  stream?.abort();
  stream = null;
}

function kindName(kind: InboxEventKind): string {
  return InboxEventKindSchema.values.find((v) => v.number === kind)?.localName ?? "UNSPECIFIED";
}

/** Accept or decline a takeback request from the inbox; what came of it is noted on the event. */
async function answerTakeback(event: InboxEvent, accept: boolean): Promise<void> {
  let note: string;
  try {
    const reply = await games.answerTakeback({ gameId: event.gameId, takebackId: event.takebackId, accept });
    const status = reply.takeback?.status;
    note = !accept
      ? t("web.inbox.takeback_declined", "You declined.")
      : status === TakebackStatus.ACCEPTED
        ? t("web.inbox.takeback_carried_out", "You accepted: the game went back.")
        : t("web.inbox.takeback_accepted", "You accepted; the others' answers are awaited.");
  } catch (error) {
    note = refusalText(error) ?? failure(error);
  }
  answered.set(event.takebackId, note);
  redraw?.();
}

/** What an event says, and the buttons it leads to. */
function entry(event: InboxEvent): [string, HTMLElement[]] {
  const title = titleName(event.title);
  const sender = event.sender?.displayName ?? "";
  const open = (label = t("web.inbox.open_game", "Open the game")) =>
    button(label, () => go(`game/${event.gameId}`), { class: "open-game" });
  const tournament = (label = t("web.inbox.tournament", "Tournament")) =>
    button(label, () => go(`tournament/${event.tournamentId}`), { class: "open-tournament" });
  switch (event.kind) {
    case InboxEventKind.YOUR_TURN:
      return [t("web.inbox.your_turn", "Your turn in {title}.", { title }), [open(t("web.inbox.play", "Play"))]];
    case InboxEventKind.DEADLINE_NEAR:
      return [t("web.inbox.deadline_near", "Your time in {title} runs out {when}.", {
        title, when: until(event.deadline ? timestampDate(event.deadline) : undefined),
      }), [open(t("web.inbox.play", "Play"))]];
    case InboxEventKind.INVITED:
      return [t("web.inbox.invited", "{sender} invites you to a game of {title}.", { sender, title }), [
        button(t("web.inbox.join", "Join the lobby"), () => guarded(async () => {
          const lobby = (await lobbies.joinLobby({ lobbyId: event.lobbyId, inviteCode: event.inviteCode })).lobby;
          if (lobby) go(`lobby/${lobby.lobbyId}`);
        }), { class: "join-lobby primary" })]];
    case InboxEventKind.LOBBY_STARTED:
      return [t("web.inbox.lobby_started", "Your lobby of {title} started its game.", { title }), [open()]];
    case InboxEventKind.GAME_ENDED:
      return [event.myRank
        ? t("web.inbox.game_ended_rank", "{title} is over: you ranked {rank}.", { title, rank: event.myRank })
        : t("web.inbox.game_ended", "{title} is over.", { title }),
      [open(t("web.inbox.result", "See the result")), button(t("web.inbox.replay", "Replay"), () => go(`replay/${event.gameId}`), { class: "replay" })]];
    case InboxEventKind.RATING_CHANGED:
      return [t("web.inbox.rating", "Your {title} rating went from {before} to {after} (you ranked {rank}).", {
        title, before: event.ratingBefore.toFixed(1), after: event.ratingAfter.toFixed(1), rank: event.myRank,
      }), [button(t("web.inbox.leaderboard", "Leaderboard"), () => go(`leaderboards/${event.title}`))]];
    case InboxEventKind.LOBBY_CHAT:
      return [t("web.inbox.chat", "{sender} in the lobby of {title}: {text}", {
        sender: event.chat?.sender?.displayName ?? sender, title, text: event.chat?.text ?? "",
      }), [button(t("web.inbox.open_lobby", "Open the lobby"), () => go(`lobby/${event.lobbyId}`))]];
    case InboxEventKind.INVITED_TO_WATCH:
      return [t("web.inbox.invited_to_watch", "{sender} invites you to watch {title}.", { sender, title }), [
        event.gameId ? open(t("web.inbox.watch", "Watch")) : button(t("web.inbox.open_lobby", "Open the lobby"), () => go(`lobby/${event.lobbyId}`))]];
    case InboxEventKind.TAKEBACK_REQUESTED: {
      const lapsed = event.deadline && timestampDate(event.deadline).getTime() <= Date.now();
      const note = answered.get(event.takebackId) ?? (lapsed ? t("web.inbox.takeback_lapsed", "The time to answer is over.") : undefined);
      return [t("web.inbox.takeback", "{sender} asks to take back their last decision in {title}: the game would go back to version {version}. Answer {when}.", {
        sender, title, version: String(event.version), when: until(event.deadline ? timestampDate(event.deadline) : undefined),
      }), [open(), ...note !== undefined ? [el("span", { class: "answered muted" }, note)] : [
        button(t("web.inbox.takeback_accept", "Accept"), () => answerTakeback(event, true), { class: "takeback-accept primary" }),
        button(t("web.inbox.takeback_decline", "Decline"), () => answerTakeback(event, false), { class: "takeback-decline" })]]];
    }
    case InboxEventKind.TOURNAMENT_TABLE_READY:
      return [t("web.inbox.table_ready", "Your table of round {round} of a {title} tournament is ready.", { round: event.tournamentRound, title }),
        [open(t("web.inbox.play", "Play")), tournament()]];
    case InboxEventKind.TOURNAMENT_BYE:
      return [t("web.inbox.bye", "You sit out round {round} of a {title} tournament (a bye).", { round: event.tournamentRound, title }), [tournament()]];
    case InboxEventKind.TOURNAMENT_CANCELLED:
      return [t("web.inbox.tournament_cancelled", "A {title} tournament you entered was called off before it started.", { title }), [tournament()]];
    case InboxEventKind.TOURNAMENT_FINISHED:
      return [t("web.inbox.tournament_finished", "A {title} tournament is over: you placed {place}.", { title, place: event.myRank }),
        [tournament(t("web.inbox.standings", "Standings"))]];
    default:
      return [t("web.inbox.other", "News about {title}.", { title }), []];
  }
}

function item(event: InboxEvent): HTMLElement {
  const [text, actions] = entry(event);
  const at = event.at ? timestampDate(event.at) : undefined;
  return el("li", {
    class: `inbox-event${isUnread(event) ? " unread" : ""}`,
    "data-kind": kindName(event.kind),
    "data-event-id": event.eventId,
    "data-game-id": event.gameId,
    "data-lobby-id": event.lobbyId,
    "data-tournament-id": event.tournamentId,
  },
  el("div", { class: "inbox-text" }, el("span", {}, text), el("span", { class: "muted small", title: at?.toLocaleString(tag()) ?? "" }, ago(at))),
  el("div", { class: "row" }, ...actions));
}

export async function inboxScreen(screen: Screen): Promise<void> {
  await loadTitles();
  if (screen.signal.aborted) return; // left (or signed out) meanwhile
  const section = show("inbox");
  const list = el("ol", { id: "inbox-events", class: "inbox" });
  const draw = () => {
    list.replaceChildren(...events.length
      ? [...events].reverse().map(item)
      : [el("li", { class: "empty" }, t("web.inbox.none", "Nothing yet: your turns, invitations and results show here."))]);
  };
  section.replaceChildren(card(t("web.inbox.heading", "Inbox"),
    el("div", { class: "row spread" },
      el("p", { class: "muted" }, t("web.inbox.help", "Your turns, deadlines, invitations and results, newest first. \"Read\" is kept in this browser.")),
      button(t("web.inbox.read_all", "Mark all as read"), () => { markAllRead(); draw(); }, { id: "inbox-read-all" })),
    list));
  draw();
  onInbox(draw, screen.signal);
  redraw = draw;
  screen.signal.addEventListener("abort", () => { if (redraw === draw) redraw = null; }, { once: true });
}
