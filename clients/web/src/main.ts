// The web client's router: the header (the player, sign-out, the navigation) and the screen the
// address names (#/lobbies, #/lobby/ID, #/games, #/inbox, #/match, #/leaderboards/TITLE, #/game/ID,
// #/replay/ID/MOVE; ?watch=ID opens a game), each screen a module of screens/.
import { Code, ConnectError } from "@connectrpc/connect";
import { accounts, keepToken, session } from "./api";
import { button, el, say, show } from "./dom";
import { t } from "./i18n";
import { account, failure, guarded, type Screen } from "./screens/common";
import { gamesScreen } from "./screens/games";
import { inboxScreen, startInbox, stopInbox } from "./screens/inbox";
import { leaderboardsScreen } from "./screens/leaderboards";
import { lobbiesScreen } from "./screens/lobbies";
import { lobbyScreen } from "./screens/lobby";
import { matchScreen, stopSearch } from "./screens/match";
import { playScreen } from "./screens/play";
import { replayScreen } from "./screens/replay";
import { signInScreen } from "./screens/signin";

type Route = (screen: Screen, rest: string) => Promise<void>;

const ROUTES: Record<string, Route> = {
  lobbies: (screen) => lobbiesScreen(screen),
  lobby: lobbyScreen,
  games: (screen) => gamesScreen(screen),
  inbox: (screen) => inboxScreen(screen),
  match: (screen) => matchScreen(screen),
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
  { route: "leaderboards", label: () => t("web.nav.leaderboards", "Leaderboards"), covers: ["leaderboards"] },
];

let current: AbortController | null = null;

function parse(): [string, string] {
  const path = window.location.hash.replace(/^#\/?/, "");
  const [name, ...rest] = path.split("/");
  return [name in ROUTES ? name : HOME, rest.map(decodeURIComponent).join("/")];
}

async function route(): Promise<void> {
  if (!account.player) return;
  current?.abort();
  const controller = (current = new AbortController());
  const [name, rest] = parse();
  for (const link of document.querySelectorAll<HTMLElement>("#nav a")) {
    const covers = (link.dataset.covers ?? "").split(" ");
    if (covers.includes(name)) link.setAttribute("aria-current", "page");
    else link.removeAttribute("aria-current");
  }
  window.scrollTo(0, 0);
  await guarded(() => ROUTES[name]({ signal: controller.signal }, rest));
}

function header(): void {
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
  ));
  (document.getElementById("messages-summary") as HTMLElement).textContent = t("web.header.recent", "Recent messages");
}

async function signOut(): Promise<void> {
  current?.abort();
  stopInbox();
  stopSearch();
  try {
    await accounts.signOut({});
  } finally {
    keepToken("");
    account.player = undefined;
    signIn();
  }
}

function signIn(): void {
  current?.abort();
  header();
  signInScreen(enter);
}

/** Once a token is kept: the player, the header, the inbox, then the screen the address names. */
async function enter(): Promise<void> {
  account.player = (await accounts.getMe({})).player;
  show(""); // the sign-in form is gone at once, not when the first screen has loaded
  header();
  startInbox();
  await route();
}

document.title = t("web.header.title", "Board games");
window.addEventListener("hashchange", () => void route());
// A page left hangs its streams up at once: each holds one of the few connections a browser opens to
// the gateway, and the next page needs them.
window.addEventListener("pagehide", () => {
  current?.abort();
  stopInbox();
  stopSearch();
});
const watch = new URLSearchParams(window.location.search).get("watch");
if (watch && !window.location.hash) history.replaceState(null, "", `#/game/${encodeURIComponent(watch)}`);
if (!session.token) signIn();
else
  void enter().catch((error: unknown) => {
    if (error instanceof ConnectError && error.code === Code.Unauthenticated) keepToken("");
    else say(failure(error));
    account.player = undefined;
    signIn();
  });
