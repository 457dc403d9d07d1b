// Matchmaking (MatchService): pick a game (title, seats, options), the bots' strength and how long to
// wait before bots fill the seats no player took; queue, follow the search (rating, band, time waited),
// cancel, and go to the game once matched. The search lives on while the player looks at other screens
// (the header shows it); hanging its stream up would withdraw it.
import { Code, ConnectError } from "@connectrpc/connect";
import { match } from "../api";
import { button, card, el, field, say, show } from "../dom";
import { t } from "../i18n";
import { BotStrength, MatchStatus } from "../gen/boardgame/gateway/v1/gateway_pb";
import { failure, gameChoice, go, guarded, loadTitlesWithCatalogs, strengthSelect, titleName, type Screen } from "./common";

const BOTS_AFTER_SECONDS = 30; // the page's default wait before bots fill the open seats
const MOST_BOTS_AFTER_SECONDS = 600;

type Search = {
  title: string;
  seats: number;
  strength: number;
  status: MatchStatus;
  rating: number;
  band: number;
  waitedMs: number;
  gameId: string;
  bots: number;
  error: string;
};

let search: Search | null = null;
let stream: AbortController | null = null;
let chosenStrength: number = BotStrength.UNSPECIFIED; // the level nearest the players, as the API's default
const listeners = new Set<() => void>();

/** The header's chip of a search going on, and the match screen, drawn again. */
export function changed(): void {
  const chip = document.getElementById("match-badge");
  if (chip) chip.hidden = search?.status !== MatchStatus.SEARCHING;
  for (const listener of listeners) listener();
}

export function searching(): boolean {
  return search?.status === MatchStatus.SEARCHING;
}

async function find(request: { title: string; seatCount: number; options: { name: string; value: string }[]; botsAfterSeconds: number; botStrength: number }): Promise<void> {
  stream?.abort();
  const controller = (stream = new AbortController());
  search = {
    title: request.title, seats: request.seatCount, strength: request.botStrength,
    status: MatchStatus.SEARCHING, rating: 0, band: 0, waitedMs: 0, gameId: "", bots: 0, error: "",
  };
  changed();
  try {
    for await (const reply of match.findMatch(request, { signal: controller.signal })) {
      search = { ...search, status: reply.status, rating: reply.rating, band: reply.band, waitedMs: Number(reply.waitedMs), gameId: reply.gameId, bots: reply.bots };
      changed();
      if (reply.status === MatchStatus.MATCHED && reply.gameId) go(`game/${reply.gameId}`);
    }
  } catch (error) {
    if (controller.signal.aborted) return;
    search = { ...search, status: MatchStatus.CANCELLED, error: failure(error) };
    say(failure(error));
  }
  if (search.status === MatchStatus.SEARCHING) search = { ...search, status: MatchStatus.CANCELLED };
  changed();
}

/** Withdraw the search (the stream then ends with CANCELLED). */
export async function cancelSearch(): Promise<void> {
  try {
    await match.cancelMatch({});
  } catch (error) {
    if (!(error instanceof ConnectError && error.code === Code.FailedPrecondition)) throw error;
    stream?.abort(); // none left at the gateway: just stop listening
    if (search) search = { ...search, status: MatchStatus.CANCELLED };
    changed();
  }
}

/** Forget the search on signing out (hanging up withdraws it). */
export function stopSearch(): void {
  stream?.abort();
  stream = null;
  search = null;
  changed();
}

function stateText(current: Search): string {
  const title = titleName(current.title);
  switch (current.status) {
    case MatchStatus.SEARCHING:
      return t("web.match.searching", "Searching for {seats} players of {title}: rating {rating}, players within {band} points, waited {seconds} s.", {
        seats: current.seats, title, rating: current.rating.toFixed(1), band: current.band.toFixed(1), seconds: Math.round(current.waitedMs / 1000),
      });
    case MatchStatus.MATCHED:
      return t("web.match.matched", "Matched: a game of {title} with {bots, plural, =0 {no bots} one {# bot} other {# bots}}.", { title, bots: current.bots });
    default:
      return current.error
        ? t("web.match.failed", "The search ended: {error}", { error: current.error })
        : t("web.match.cancelled", "The search was withdrawn.");
  }
}

export async function matchScreen(screen: Screen): Promise<void> {
  await loadTitlesWithCatalogs();
  if (screen.signal.aborted) return; // left (or signed out) meanwhile
  const section = show("match");
  const choice = gameChoice("match-", 2);
  // The title's levels with their ratings, drawn again for another title.
  const strengthOf = () => {
    const made = strengthSelect("match-strength", chosenStrength, choice.title(), true);
    made.addEventListener("change", () => { chosenStrength = Number(made.value); });
    return made;
  };
  let strength = strengthOf();
  const strengthField = field(t("web.match.strength", "Bots' strength"), strength);
  choice.element.querySelector("#match-title")?.addEventListener("change", () => {
    const fresh = strengthOf();
    strength.replaceWith(fresh);
    strength = fresh;
  });
  const botsAfter = el("input", { id: "match-bots-after", type: "number", min: "1", max: String(MOST_BOTS_AFTER_SECONDS), value: String(BOTS_AFTER_SECONDS) });
  const state = el("p", { id: "match-state", class: "state" });
  const find_ = button(t("web.match.find", "Find a match"), () => guarded(() => find({
    title: choice.title(), seatCount: choice.seats(), options: choice.options(),
    botsAfterSeconds: Number(botsAfter.value), botStrength: Number(strength.value),
  })), { id: "find-match", class: "primary" });
  const cancel = button(t("web.match.cancel", "Cancel the search"), () => guarded(cancelSearch), { id: "cancel-match" });
  const draw = () => {
    state.dataset.status = search ? MatchStatus[search.status].toLowerCase() : "idle";
    state.textContent = search ? stateText(search) : t("web.match.idle", "Not searching.");
    find_.disabled = searching();
    cancel.disabled = !searching();
    if (search?.gameId) {
      state.dataset.gameId = search.gameId;
      state.append(" ", button(t("web.match.open", "Open the game"), () => go(`game/${search?.gameId}`), { id: "match-open" }));
    }
  };
  section.replaceChildren(card(t("web.match.heading", "Find a match"),
    el("p", { class: "muted" }, t("web.match.help", "Players near your rating are grouped for a game; once the wait is over, bots fill the seats nobody took: of the level you pick, or of the level whose rating is nearest the players'.")),
    choice.element,
    el("div", { class: "row" },
      strengthField,
      field(t("web.match.bots_after", "Bots after (seconds)"), botsAfter)),
    el("div", { class: "row" }, find_, cancel),
    state));
  listeners.add(draw);
  screen.signal.addEventListener("abort", () => listeners.delete(draw), { once: true });
  draw();
}
