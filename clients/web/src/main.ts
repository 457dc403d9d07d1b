// The web client's router: the header (the player, sign-out, the navigation, the language menu) and
// the screen the address names (#/lobbies, #/lobby/ID, #/games, #/inbox, #/match, #/leaderboards/TITLE,
// #/game/ID, #/replay/ID/MOVE; ?watch=ID opens a game), each screen a module of screens/. A language
// picked in the menu draws the header and the screen again in it, without reloading the page.
import { Code, ConnectError } from "@connectrpc/connect";
import { accounts, keepToken, session } from "./api";
import { loadLocale } from "./catalogs";
import { button, el, say, show } from "./dom";
import { locale, t, tag } from "./i18n";
import { localeMenu, pickedHere, wanted } from "./locale";
import { account, failure, guarded, type Screen } from "./screens/common";
import { gamesScreen } from "./screens/games";
import { badge, inboxScreen, startInbox, stopInbox } from "./screens/inbox";
import { leaderboardsScreen } from "./screens/leaderboards";
import { lobbiesScreen } from "./screens/lobbies";
import { lobbyScreen } from "./screens/lobby";
import { changed as searchChanged, matchScreen, stopSearch } from "./screens/match";
import { playScreen } from "./screens/play";
import { replayScreen } from "./screens/replay";
import { signInScreen } from "./screens/signin";
import { tournamentScreen } from "./screens/tournament";
import { tournamentsScreen } from "./screens/tournaments";

type Route = (screen: Screen, rest: string) => Promise<void>;

const ROUTES: Record<string, Route> = {
  lobbies: (screen) => lobbiesScreen(screen),
  lobby: lobbyScreen,
  games: (screen) => gamesScreen(screen),
  inbox: (screen) => inboxScreen(screen),
  match: (screen) => matchScreen(screen),
  tournaments: (screen) => tournamentsScreen(screen),
  tournament: tournamentScreen,
  leaderboards: leaderboardsScreen,
  game: playScreen,
  replay: replayScreen,
};
const HOME = "lobbies";
// The navigation: each entry's route, and the routes it stands for.
const NAV: { route: string; label: () => string; covers: string[]; badge?: string }[] = [
  { route: "lobbies", label: () => t("web.nav.lobbies", "Lobbies"), covers: ["lobbies", "lobby"] },
  { route: "games", label: () => t("web.nav.games", "My games"), covers: ["games", "game", "replay"] },
  { route: "inbox", label: () => t("web.nav.inbox", "Inbox"), covers: ["inbox"], badge: "inbox-unread" },
  { route: "match", label: () => t("web.nav.match", "Match"), covers: ["match"], badge: "match-badge" },
  { route: "tournaments", label: () => t("web.nav.tournaments", "Tournaments"), covers: ["tournaments", "tournament"] },
  { route: "leaderboards", label: () => t("web.nav.leaderboards", "Leaderboards"), covers: ["leaderboards"] },
];

let current: { controller: AbortController; screen: Screen } | null = null;

function parse(): [string, string] {
  const path = window.location.hash.replace(/^#\/?/, "");
  const [name, ...rest] = path.split("/");
  return [name in ROUTES ? name : HOME, rest.map(decodeURIComponent).join("/")];
}

async function route(): Promise<void> {
  if (!account.player) return;
  current?.controller.abort();
  const controller = new AbortController();
  const screen: Screen = { signal: controller.signal };
  current = { controller, screen };
  const [name, rest] = parse();
  markNav();
  window.scrollTo(0, 0);
  await guarded(() => ROUTES[name](screen, rest));
}

/** The navigation's entry of the screen the address names, marked as the current page. */
function markNav(): void {
  const [name] = parse();
  for (const link of document.querySelectorAll<HTMLElement>("#nav a")) {
    const covers = (link.dataset.covers ?? "").split(" ");
    if (covers.includes(name)) link.setAttribute("aria-current", "page");
    else link.removeAttribute("aria-current");
  }
}

/** Speak `name` from now on: its catalog fetched, English if that fails. */
async function speak(name: string): Promise<void> {
  if (name === locale()) return;
  try {
    await loadLocale(name);
  } catch (error) {
    say(t("web.header.no_catalog", "The page's texts in {locale} could not be fetched ({error}); English is shown.", { locale: tag(name), error: String(error) }));
  }
}

/** A language picked in the menu: saved to the account, then the header and the screen drawn in it. */
async function switchTo(name: string): Promise<void> {
  const saving = account.player ? accounts.setLocale({ locale: tag(name) }).then(() => undefined, (error: unknown) => say(failure(error))) : undefined;
  await Promise.all([saving, speak(name)]);
  if (!account.player) return signIn();
  header();
  badge();
  searchChanged();
  const redraw = current?.screen.redraw;
  await (redraw ? guarded(redraw) : route());
}

function header(): void {
  document.title = t("web.header.title", "Board games");
  const top = document.getElementById("top") as HTMLElement;
  const signedIn = Boolean(account.player);
  top.replaceChildren(el("div", { class: "bar" },
    el("a", { class: "brand", href: "#/lobbies" }, t("web.header.brand", "Board games")),
    signedIn ? el("nav", { id: "nav", "aria-label": t("web.header.navigation", "Sections") }, ...NAV.map((entry) =>
      el("a", { href: `#/${entry.route}`, "data-covers": entry.covers.join(" "), id: `nav-${entry.route}` }, entry.label(),
        entry.badge === "inbox-unread" ? el("span", { id: "inbox-unread", class: "count", hidden: "" }) : null,
        entry.badge === "match-badge" ? el("span", { id: "match-badge", class: "count searching", hidden: "", title: t("web.header.searching", "searching") }, "…") : null))) : null,
    signedIn ? el("div", { class: "account" },
      el("span", { id: "me" }, t("web.header.signed_in", "Signed in as {name}", { name: account.player?.displayName ?? "?" })),
      button(t("web.header.sign_out", "Sign out"), () => guarded(signOut), { id: "sign-out" })) : null,
    localeMenu(switchTo),
  ));
  markNav();
  (document.getElementById("messages-summary") as HTMLElement).textContent = t("web.header.recent", "Recent messages");
}

async function signOut(): Promise<void> {
  current?.controller.abort();
  stopInbox();
  stopSearch();
  try {
    await accounts.signOut({});
  } finally {
    keepToken("");
    account.player = undefined;
    await speak(wanted());
    signIn();
  }
}

function signIn(): void {
  current?.controller.abort();
  header();
  signInScreen(enter);
}

/** Once a token is kept: the player, the language (a language picked before signing in is saved to
 * the account), the header, the inbox, then the screen the address names. */
async function enter(): Promise<void> {
  const me = await accounts.getMe({});
  account.player = me.player;
  show(""); // the sign-in form is gone at once, not when the first screen has loaded
  const picked = pickedHere();
  if (picked && tag(picked) !== me.locale) {
    await accounts.setLocale({ locale: tag(picked) }).catch((error: unknown) => say(failure(error)));
  }
  await speak(wanted(me.locale));
  header();
  startInbox();
  await route();
}

window.addEventListener("hashchange", () => void route());
// A page left hangs its streams up at once: each holds one of the few connections a browser opens to
// the gateway, and the next page needs them.
window.addEventListener("pagehide", () => {
  current?.controller.abort();
  stopInbox();
  stopSearch();
});
const watch = new URLSearchParams(window.location.search).get("watch");
if (watch && !window.location.hash) history.replaceState(null, "", `#/game/${encodeURIComponent(watch)}`);
if (!session.token) void speak(wanted()).then(signIn);
else
  void enter().catch(async (error: unknown) => {
    if (error instanceof ConnectError && error.code === Code.Unauthenticated) keepToken("");
    else say(failure(error));
    account.player = undefined;
    await speak(wanted());
    signIn();
  });
