// Undo and takebacks on the play screen (docs/undo.md): the seat's Undo (GameService.Undo, also the key
// U), its refusal said by reason, and after UNDO_BARRIER the offer to ask the others for a takeback
// (RequestTakeback); a pending request shown to every seat (who asks, back to which version, who has
// answered, the time left), with Accept and Decline for the seats it waits on (AnswerTakeback); and
// how it ended.
import { timestampDate } from "@bufbuild/protobuf/wkt";
import { Code, ConnectError } from "@connectrpc/connect";
import { games } from "../api";
import { button, el, say } from "../dom";
import { refusalOf } from "../errors";
import { list, t } from "../i18n";
import { GameStatus, TakebackStatus, type GameView, type Takeback } from "../gen/boardgame/gateway/v1/gateway_pb";
import { failure, seatName } from "./common";

/** What the play screen holds of one game: the newest view, the takeback pending or just ended, the
 * last refusal of an undo or takeback (shown while the game stays at its version). */
export type Table = {
  game?: GameView;
  takeback?: Takeback;
  ended?: { takeback: Takeback; at: bigint };
  refused?: { text: string; reason: string; offer: boolean; at: bigint };
  busy: boolean;
  /** Show a view fresh from the gateway unless an older version than the one shown; a fresh view
   * says whether a takeback is pending. */
  show(game: GameView | undefined): void;
  /** Draw what is held again (after a refusal, or a takeback's change). */
  redraw(): void;
};

// The barriers an UNDO_BARRIER refusal names in its metadata (`barriers`: hand_over, chance, reveal).
const BARRIERS: Record<string, () => string> = {
  hand_over: () => t("web.undo.barrier.hand_over", "the turn passed on"),
  chance: () => t("web.undo.barrier.chance", "it drew something by chance"),
  reveal: () => t("web.undo.barrier.reveal", "it showed you something hidden"),
};

// What a refusal of Undo, RequestTakeback or AnswerTakeback says, by its reason (docs/errors.md).
const REFUSALS: Record<string, (metadata: Record<string, string>) => string> = {
  NOTHING_TO_UNDO: () => t("web.undo.refused.nothing", "You have no decision to take back."),
  UNDO_BARRIER: (metadata) => {
    const named = (metadata.barriers ?? "").split(",").filter((b) => b in BARRIERS).map((b) => BARRIERS[b]());
    const why = named.length ? list(named) : t("web.undo.barrier.other", "another seat has acted since, or something hidden or random was revealed");
    return t("web.undo.refused.barrier", "Your last decision can no longer be undone: {why}.", { why });
  },
  UNDO_OFF: () => t("web.undo.refused.off", "This game allows no undo: its lobby turned undo off."),
  SEAT_RESIGNED: () => t("web.undo.refused.resigned", "You resigned this seat: a bot plays it."),
  GAME_OVER: () => t("web.undo.refused.over", "The game is over."),
  TAKEBACKS_OFF: () => t("web.takeback.refused.off", "This game allows no takebacks: it is rated, or allows undo within the turn only."),
  TAKEBACK_PENDING: () => t("web.takeback.refused.pending", "Another takeback request is pending: answer it first."),
  NO_TAKEBACK: () => t("web.takeback.refused.gone", "That takeback request is no longer pending."),
  NOT_ASKED: () => t("web.takeback.refused.not_asked", "Your answer to this request is not asked for."),
  ALREADY_ANSWERED: () => t("web.takeback.refused.answered", "You answered this request the other way already."),
};

/** What a refusal of Undo, RequestTakeback or AnswerTakeback says; undefined for another failure. */
export function refusalText(error: unknown): string | undefined {
  const refusal = refusalOf(error);
  return refusal ? REFUSALS[refusal.reason]?.(refusal.metadata) : undefined;
}

/** Whether the view's seat may ask to undo: a player's seat, not resigned, in a game being played. */
export function mayUndo(game: GameView): boolean {
  return game.seat !== undefined && game.status === GameStatus.ACTIVE && !game.seats.find((s) => s.seat === game.seat)?.resigned;
}

function seatNames(game: GameView, seats: number[]): string {
  return list(seats.map((seat) => seatName(game.seats.find((s) => s.seat === seat))));
}

/** A refused call kept to show, by its reason; a stale version refreshes the view; anything else is
 * the page's message. */
async function refused(table: Table, error: unknown): Promise<void> {
  const game = table.game as GameView;
  if (error instanceof ConnectError && error.code === Code.Aborted) {
    say(t("web.play.stale", "the game moved on; the view is refreshed"));
    table.show((await games.getGame({ gameId: game.gameId })).game);
    return;
  }
  const refusal = refusalOf(error);
  const text = refusal ? REFUSALS[refusal.reason]?.(refusal.metadata) : undefined;
  if (!refusal || text === undefined) return say(failure(error));
  table.refused = { text, reason: refusal.reason, offer: refusal.reason === "UNDO_BARRIER", at: game.version };
  table.redraw();
}

/** Run one call at a time: the buttons wait for it. */
async function once(table: Table, work: () => Promise<void>): Promise<void> {
  if (table.busy || !table.game) return;
  table.busy = true;
  try {
    await work();
  } catch (error) {
    await refused(table, error);
  } finally {
    table.busy = false;
  }
}

/** Take back the seat's last decision at the version shown. */
export function undo(table: Table): Promise<void> {
  return once(table, async () => {
    const game = table.game as GameView;
    const reply = await games.undo({ gameId: game.gameId, expectedVersion: game.version, requestId: crypto.randomUUID() });
    table.show(reply.game);
  });
}

function noteEnd(table: Table, takeback: Takeback): void {
  table.takeback = undefined;
  table.ended = { takeback, at: takeback.status === TakebackStatus.ACCEPTED ? takeback.version : table.game?.version ?? 0n };
}

/** A takeback as a call answered it or the stream told of it: pending, or ended (drawn by the caller). */
export function noteTakeback(table: Table, takeback: Takeback): void {
  if (takeback.status === TakebackStatus.PENDING) {
    table.takeback = takeback;
    table.ended = undefined;
  } else if (!table.takeback || table.takeback.takebackId === takeback.takebackId) noteEnd(table, takeback);
}

function askTakeback(table: Table): Promise<void> {
  return once(table, async () => {
    const game = table.game as GameView;
    const reply = await games.requestTakeback({ gameId: game.gameId, expectedVersion: game.version });
    table.refused = undefined;
    table.show(reply.game);
    if (reply.takeback) noteTakeback(table, reply.takeback);
    table.redraw();
  });
}

function answer(table: Table, accept: boolean): Promise<void> {
  return once(table, async () => {
    const pending = table.takeback as Takeback;
    const reply = await games.answerTakeback({ gameId: (table.game as GameView).gameId, takebackId: pending.takebackId, accept });
    table.show(reply.game);
    if (reply.takeback) noteTakeback(table, reply.takeback);
    table.redraw();
  });
}

/** The seat's Undo button, and the last refusal with, after UNDO_BARRIER, the offer of a takeback. */
export function undoPart(table: Table, game: GameView): HTMLElement | null {
  if (!mayUndo(game)) return null;
  const refusal = table.refused?.at === game.version ? table.refused : undefined;
  return el("div", { id: "undo-part" },
    el("div", { class: "row" },
      button(t("web.undo.button", "Undo"), () => undo(table), {
        id: "undo", "aria-keyshortcuts": "U", title: t("web.undo.help", "Take back your last decision of this turn (key U)"),
      })),
    refusal ? el("p", { id: "undo-refusal", class: "refusal", role: "status", "data-reason": refusal.reason }, refusal.text) : null,
    refusal?.offer && !table.takeback
      ? el("div", { id: "takeback-offer", class: "row" },
        el("span", { class: "muted small" }, t("web.takeback.offer", "You may ask the other players for a takeback: every one of them must accept.")),
        button(t("web.takeback.ask", "Ask for a takeback"), () => askTakeback(table), { id: "ask-takeback" }))
      : null);
}

/** "1:05": the time left until `deadline`. */
export function timeLeft(deadline: Date | undefined, now = Date.now()): string {
  const seconds = deadline ? Math.max(0, Math.ceil((deadline.getTime() - now) / 1000)) : 0;
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
}

function outcome(game: GameView, takeback: Takeback): string {
  switch (takeback.status) {
    case TakebackStatus.ACCEPTED:
      return t("web.takeback.accepted", "The takeback was accepted: the game went back to version {version}.", { version: String(takeback.returnsTo) });
    case TakebackStatus.DECLINED:
      return takeback.declinedSeats.length
        ? t("web.takeback.declined_by", "{names} declined the takeback.", { names: seatNames(game, takeback.declinedSeats) })
        : t("web.takeback.declined", "The takeback was declined.");
    case TakebackStatus.EXPIRED:
      return t("web.takeback.expired", "The takeback lapsed: not every player accepted it in time.");
    default:
      return t("web.takeback.cancelled", "The takeback was called off: its seat resigned or the game ended.");
  }
}

/** The takeback pending (for every seat; Accept and Decline for those it waits on), or how the last
 * one ended; empty when neither. */
export function takebackPanel(table: Table): HTMLElement {
  const game = table.game;
  const pending = table.takeback;
  const ended = table.ended && game && table.ended.at === game.version ? table.ended.takeback : undefined;
  const panel = el("div", { id: "takeback", role: "status", "aria-live": "polite" });
  if (!game) return panel;
  if (pending) {
    const mine = game.seat !== undefined && pending.seat === game.seat;
    const asked = game.seat !== undefined && pending.waitingSeats.includes(game.seat);
    const version = String(pending.returnsTo);
    panel.className = `takeback pending${asked ? " asked" : ""}`;
    panel.dataset.status = "pending";
    panel.dataset.takebackId = pending.takebackId;
    panel.dataset.returnsTo = version;
    panel.append(
      el("p", { id: "takeback-ask" }, mine
        ? t("web.takeback.you_ask", "You ask to take back your last decision: the game would go back to version {version}.", { version })
        : t("web.takeback.asks", "{name} asks to take back their last decision: the game would go back to version {version}.", {
          name: seatName(game.seats.find((s) => s.seat === pending.seat)), version,
        })),
      el("ul", { class: "takeback-answers" },
        pending.acceptedSeats.length ? el("li", { id: "takeback-accepted" }, t("web.takeback.accepted_by", "Accepted: {names}", { names: seatNames(game, pending.acceptedSeats) })) : null,
        pending.waitingSeats.length ? el("li", { id: "takeback-waiting" }, t("web.takeback.waiting_for", "Waiting for: {names}", { names: seatNames(game, pending.waitingSeats) })) : null,
        el("li", { id: "takeback-time" }, ...leftLine(pending))),
      el("div", { class: "row" }, ...(asked ? [
        button(t("web.takeback.accept", "Accept"), () => answer(table, true), { id: "takeback-accept", class: "primary" }),
        button(t("web.takeback.decline", "Decline"), () => answer(table, false), { id: "takeback-decline" })] : [])));
  } else if (ended) {
    panel.className = "takeback ended";
    panel.dataset.status = TakebackStatus[ended.status].toLowerCase();
    panel.append(el("p", { id: "takeback-outcome" }, outcome(game, ended)));
  } else panel.hidden = true;
  return panel;
}

function deadline(takeback: Takeback): Date | undefined {
  return takeback.deadline ? timestampDate(takeback.deadline) : undefined;
}

/** "1:05 left to answer", the time a span of its own. */
function leftLine(takeback: Takeback): (Node | string)[] {
  const marker = "\u0000";
  const [before, after] = t("web.takeback.left", "{time} left to answer", { time: marker }).split(marker);
  return [before ?? "", el("span", { id: "takeback-left" }, timeLeft(deadline(takeback))), after ?? ""];
}

/** The time left of the pending request, shown again (each second while the screen is open). */
export function tick(table: Table): void {
  const left = document.getElementById("takeback-left");
  if (left && table.takeback) left.textContent = timeLeft(deadline(table.takeback));
}
