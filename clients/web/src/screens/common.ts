// What the screens share: the signed-in player, the titles, failures shown as messages, navigation,
// the bot strengths and the form that picks a kind of game (title, seats, options).
import { Code, ConnectError } from "@connectrpc/connect";
import { catalog } from "../api";
import { el, field, say, select } from "../dom";
import { loadCatalog } from "../catalogs";
import { hasTitleCatalog, render, t, term, titleMessage } from "../i18n";
import type { GameInfo, ScoreItem } from "../gen/boardgame/rules/v1/rules_pb";
import {
  BotStrength,
  BotStrengthSchema,
  type BotLevel,
  type GameSeat,
  type Player,
} from "../gen/boardgame/gateway/v1/gateway_pb";

/** A screen's life: aborted when the page goes to another screen. A screen that keeps what it shows
 * (a game's stream) sets `redraw` to draw it again in a language just picked; others are opened anew. */
export type Screen = { signal: AbortSignal; redraw?: () => Promise<void> };

/** The signed-in player, once known. */
export const account: { player?: Player } = {};

let titles: GameInfo[] = [];
let levels = new Map<string, BotLevel[]>(); // each title's bot levels, with their measured ratings

/** Every title (and each title's bot levels), fetched once. */
export async function loadTitles(): Promise<GameInfo[]> {
  if (!titles.length) {
    const reply = await catalog.listTitles({});
    levels = new Map(reply.botLevels.map((of) => [of.title, of.levels]));
    titles = reply.titles;
  }
  return titles;
}

/** Every title, with its catalog in the reader's locale: a game form then draws its options' labels
 * at once, rather than growing under the reader's pointer when they arrive. */
export async function loadTitlesWithCatalogs(): Promise<GameInfo[]> {
  const all = await loadTitles();
  await Promise.all(all.map((info) => loadCatalog(info.name)));
  return all;
}

export function titleInfo(name: string): GameInfo | undefined {
  return titles.find((info) => info.name === name);
}

/** A title's name for people: the page's message `<title>.web.title`, else the API's English name. */
export function titleName(name: string): string {
  return term(name, "web", "title", titleInfo(name)?.displayName || name);
}

export function failure(error: unknown): string {
  return error instanceof ConnectError ? `${Code[error.code]}: ${error.rawMessage}` : String(error);
}

/** Run `work`, showing its failure as the page's message. */
export async function guarded(work: () => Promise<unknown>): Promise<void> {
  try {
    await work();
  } catch (error) {
    say(failure(error));
  }
}

/** Go to a screen: `route` is the part after "#/" ("games", "game/ID"). */
export function go(route: string): void {
  const hash = `#/${route}`;
  if (window.location.hash === hash) window.dispatchEvent(new HashChangeEvent("hashchange"));
  else window.location.hash = hash;
}

/** A link to a screen. */
export function link(route: string, text: string, attrs: Record<string, string> = {}): HTMLAnchorElement {
  return el("a", { href: `#/${route}`, ...attrs }, text);
}

// The bot levels' names in the reader's language; a level the API adds later is named by its own name
// until the page has a message for it.
const LEVEL_NAMES: Record<string, () => string> = {
  random: () => t("web.strength.random", "random"),
  easy: () => t("web.strength.easy", "easy"),
  medium: () => t("web.strength.medium", "medium"),
  hard: () => t("web.strength.hard", "hard"),
};

function levelName(level: string): string {
  return LEVEL_NAMES[level]?.() ?? level;
}

/** A level: its API value, its name (random, easy, medium, hard) and its label for people. */
export type Strength = { value: number; level: string; label: string };

/** The levels of the API's values without a title's ratings: one per value, the newest name of each
 * (BotStrength's aliases: HEURISTIC is EASY, SEARCH is MEDIUM). */
function plainLevels(): Strength[] {
  const byValue = new Map<number, string>();
  for (const value of BotStrengthSchema.values)
    if (value.number !== BotStrength.UNSPECIFIED) byValue.set(value.number, value.localName.toLowerCase());
  return [...byValue].map(([value, level]) => ({ value, level, label: levelName(level) }));
}

/** The bot levels a player may choose, weakest first, labelled in the reader's language; for a title,
 * each with the rating it measured in self-play (ListTitles' bot_levels). */
export function strengths(title = ""): Strength[] {
  const measured = levels.get(title);
  if (!measured?.length) return plainLevels();
  return measured.map((found) => ({
    value: found.strength,
    level: found.name,
    label: found.games
      ? t("web.strength.rated", "{level} (rating {rating})", { level: levelName(found.name), rating: found.rating.toFixed(1) })
      : levelName(found.name),
  }));
}

/** A select of the bot levels (of `title`, with their ratings), `chosen` selected; `nearest` adds the
 * choice of no level, which the matchmaker fills with the level nearest the players' rating. */
export function strengthSelect(id: string, chosen: number, title = "", nearest = false): HTMLSelectElement {
  const choices = [
    ...(nearest ? [{ value: BotStrength.UNSPECIFIED, level: "nearest", label: t("web.strength.nearest", "nearest your rating") }] : []),
    ...strengths(title),
  ];
  return el("select", { id, title: t("web.strength.help", "how well the bot plays") }, ...choices.map((choice) => {
    const option = el("option", { value: String(choice.value), "data-level": choice.level }, choice.label);
    option.selected = choice.value === chosen;
    return option;
  }));
}

/** A level's name in the reader's language. */
export function strengthLabel(strength: BotStrength): string {
  return plainLevels().find((s) => s.value === strength)?.label ?? "";
}

/** Who plays a seat: the player's name, a bot's with its strength. */
export function seatName(seat: GameSeat | undefined): string {
  if (!seat?.player) return t("web.seat.nobody", "nobody");
  const name = seat.player.playerId === account.player?.playerId ? t("web.seat.you", "you") : seat.player.displayName;
  if (seat.resigned) return t("web.seat.resigned", "{name} (resigned)", { name });
  if (seat.player.bot || seat.botStrength !== BotStrength.UNSPECIFIED)
    return t("web.seat.bot", "{name} (bot, {strength})", { name, strength: strengthLabel(seat.botStrength) });
  return name;
}

/** A seat's score lines (what its points are for), in the reader's language; null for none. */
export function scoreLines(items: ScoreItem[], title: string): HTMLElement | null {
  if (!items.length) return null;
  return el("ul", { class: "score-lines" }, ...items.map((item) => el("li", {},
    t("web.score.line", "{label}: {points, plural, one {# point} other {# points}}", { label: render(item.message, item.label, title), points: item.points }))));
}

/** The form part that picks a kind of game: a title, its seat count and its options, each control's
 * id `prefix` + "title", "seats", "options". */
export type GameChoice = {
  element: HTMLElement;
  title: () => string;
  seats: () => number;
  options: () => { name: string; value: string }[];
};

export function gameChoice(prefix: string, seatsWanted = 4, seatsLabel = t("web.choice.seats", "Seats")): GameChoice {
  const titleSelect = select({ id: `${prefix}title` }, titles.map((info) => ({ value: info.name, label: titleName(info.name) })));
  const seats = el("input", { id: `${prefix}seats`, type: "number", value: String(seatsWanted), min: "1" });
  const options = el("div", { id: `${prefix}options`, class: "options" });
  const drawOptions = () => {
    const chosen = new Map([...options.querySelectorAll<HTMLSelectElement>("select")].map((s) => [s.dataset.option ?? "", s.value]));
    const title = titleSelect.value;
    const info = titleInfo(title);
    const said = (id: string, fallback: string) => titleMessage(title, `${title}.option.${id}`, fallback);
    options.replaceChildren(...(info?.options ?? []).map((option) => {
      // Until the catalog is in, the English description (drawn again once it is).
      const help = hasTitleCatalog(title) ? render(option.message, option.description, title) : option.description;
      const choices = option.choices.map((choice) => ({ value: choice, label: said(`${option.name}.${choice}`, choice) }));
      const value = chosen.get(option.name) ?? option.defaultValue;
      return field(said(option.name, option.name), select({ "data-option": option.name, title: help }, choices, value), { title: help });
    }));
    if (info) {
      seats.min = String(info.minPlayers);
      seats.max = String(info.maxPlayers);
      seats.value = String(Math.min(Math.max(Number(seats.value), info.minPlayers), info.maxPlayers));
    }
  };
  // Drawn at once, and again with the labels once the title's catalog is in.
  const withCatalog = () => {
    drawOptions();
    const title = titleSelect.value;
    void loadCatalog(title).then(() => { if (titleSelect.value === title) drawOptions(); }).catch(() => undefined);
  };
  titleSelect.addEventListener("change", withCatalog);
  withCatalog();
  return {
    element: el("div", { class: "game-choice" },
      el("div", { class: "row" }, field(t("web.choice.title", "Game"), titleSelect), field(seatsLabel, seats)),
      options),
    title: () => titleSelect.value,
    seats: () => Number(seats.value),
    options: () => [...options.querySelectorAll<HTMLSelectElement>("select")].map((s) => ({ name: s.dataset.option ?? "", value: s.value })),
  };
}

/** A stream's next attempt after `failures` failures in a row: doubling from `first` up to `most`. */
export function backoff(failures: number, first = 500, most = 30_000): number {
  return Math.min(most, first * 2 ** Math.max(0, failures - 1));
}

/** Wait `ms`, or less if `signal` aborts. */
export function pause(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener("abort", () => { clearTimeout(timer); resolve(); }, { once: true });
  });
}

/** Run `work` every `ms` until `signal` aborts (never two at once). */
export function every(ms: number, signal: AbortSignal, work: () => Promise<unknown>): void {
  void (async () => {
    for (;;) {
      await pause(ms, signal);
      if (signal.aborted) return;
      try {
        await work();
      } catch (error) {
        if (!signal.aborted) say(failure(error));
      }
    }
  })();
}

export function isAborted(error: unknown): boolean {
  return error instanceof ConnectError && error.code === Code.Canceled;
}
