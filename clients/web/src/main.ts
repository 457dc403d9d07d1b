// The web client: sign in, titles and lobbies, play, spectate, replay and leaderboards.
import { Code, ConnectError } from "@connectrpc/connect";
import { accounts, catalog, games, keepToken, leaderboard, lobbies, session } from "./api";
import { button, el, say, show } from "./dom";
import { BOARDS } from "./boards/index";
import { loadTitleData, titleData } from "./data";
import { tree } from "./tree";
import { unpacked } from "./titles";
import type { GameInfo } from "./gen/boardgame/rules/v1/rules_pb";
import { BotStrength, BotStrengthSchema, GameStatus, type GameView, type Lobby } from "./gen/boardgame/gateway/v1/gateway_pb";

const RECONNECT_MS = 500;
let titles: GameInfo[] = [];

function failure(error: unknown): string {
  return error instanceof ConnectError ? `${Code[error.code]}: ${error.rawMessage}` : String(error);
}

async function guarded(work: () => Promise<unknown>): Promise<void> {
  try {
    await work();
  } catch (error) {
    say(failure(error));
  }
}

// --- signing in -------------------------------------------------------------------------------
function signIn(): void {
  const screen = show("signin");
  const name = el("input", { id: "guest-name", placeholder: "your name", value: "Guest" });
  const user = el("input", { id: "username", placeholder: "username" });
  const password = el("input", { id: "password", placeholder: "password", type: "password" });
  screen.replaceChildren(
    el("h2", {}, "Sign in"),
    el("p", {}, name, button("Play as guest", () => guarded(async () => {
      keepToken((await accounts.createGuest({ displayName: name.value })).session?.token ?? "");
      await home();
    }), { id: "guest" })),
    el("p", {}, user, password,
      button("Sign in", () => guarded(async () => {
        keepToken((await accounts.signIn({ username: user.value, password: password.value })).session?.token ?? "");
        await home();
      }), { id: "signin-account" }),
      button("Register", () => guarded(async () => {
        const reply = await accounts.register({ username: user.value, password: password.value, displayName: user.value });
        keepToken(reply.session?.token ?? "");
        await home();
      }), { id: "register" })),
  );
}

// --- home: titles, lobbies, leaderboards ------------------------------------------------------
async function home(): Promise<void> {
  const me = (await accounts.getMe({})).player;
  titles = (await catalog.listTitles({})).titles;
  const screen = show("home");
  const titleSelect = el("select", { id: "title" }, ...titles.map((t) => el("option", { value: t.name }, t.displayName || t.name)));
  const seats = el("input", { id: "seats", type: "number", value: "4", min: "1" });
  const options = el("div", { id: "options" });
  const drawOptions = () => {
    const info = titles.find((t) => t.name === titleSelect.value);
    options.replaceChildren(...(info?.options ?? []).map((option) =>
      el("label", { title: option.description }, `${option.name} `,
        el("select", { "data-option": option.name }, ...option.choices.map((c) => {
          const o = el("option", { value: c }, c);
          if (c === option.defaultValue) o.selected = true;
          return o;
        })))));
    if (info) seats.value = String(Math.min(Math.max(Number(seats.value), info.minPlayers), info.maxPlayers));
  };
  titleSelect.addEventListener("change", drawOptions);
  drawOptions();
  const privateLobby = el("input", { id: "private", type: "checkbox" });
  const code = el("input", { id: "invite-code", placeholder: "lobby id" });
  const invite = el("input", { id: "invite-secret", placeholder: "invite code" });
  const watchId = el("input", { id: "watch-id", placeholder: "game id" });
  const open = el("ul", { id: "open-lobbies" });
  const board = el("table", { id: "leaderboard" });
  screen.replaceChildren(
    el("p", { id: "me" }, `Signed in as ${me?.displayName ?? "?"}`, button("Sign out", () => guarded(async () => {
      await accounts.signOut({});
      keepToken("");
      signIn();
    }), { id: "sign-out" })),
    el("h2", {}, "New lobby"),
    el("p", {}, titleSelect, " seats ", seats, " private ", privateLobby),
    options,
    button("Create lobby", () => guarded(async () => {
      const chosen = [...options.querySelectorAll<HTMLSelectElement>("select")].map((s) => ({ name: s.dataset.option ?? "", value: s.value }));
      const lobby = (await lobbies.createLobby({
        title: titleSelect.value,
        seatCount: Number(seats.value),
        options: chosen,
        visibility: privateLobby.checked ? 2 : 1,
      })).lobby;
      if (lobby) await lobbyScreen(lobby);
    }), { id: "create-lobby" }),
    el("h2", {}, "Join by invite"),
    el("p", {}, code, invite, button("Join", () => guarded(async () => {
      const lobby = (await lobbies.joinLobby({ lobbyId: code.value, inviteCode: invite.value })).lobby;
      if (lobby) await lobbyScreen(lobby);
    }), { id: "join-invite" })),
    el("h2", {}, "Open lobbies"),
    open,
    el("h2", {}, "Watch or replay a game"),
    el("p", {}, watchId, button("Watch", () => playScreen(watchId.value)), button("Replay", () => guarded(() => replayScreen(watchId.value)))),
    el("h2", {}, "Leaderboard"),
    board,
  );
  const listed = (await lobbies.listLobbies({ title: "", pageSize: 20 })).lobbies;
  open.replaceChildren(...listed.map((lobby) => el("li", {}, `${lobby.title} (${lobby.seats.length}/${lobby.seatCount}) `,
    button("Join", () => guarded(async () => {
      const joined = (await lobbies.joinLobby({ lobbyId: lobby.lobbyId })).lobby;
      if (joined) await lobbyScreen(joined);
    })))));
  const entries = (await leaderboard.getLeaderboard({ title: titleSelect.value, pageSize: 10 })).entries;
  board.replaceChildren(
    el("tr", {}, el("th", {}, "rank"), el("th", {}, "player"), el("th", {}, "rating"), el("th", {}, "games")),
    ...entries.map((e) => el("tr", {}, el("td", {}, String(e.rank)), el("td", {}, e.player?.displayName ?? ""),
      el("td", {}, e.rating.toFixed(1)), el("td", {}, String(e.games)))));
}

// --- a lobby ---------------------------------------------------------------------------------
const LOBBY_POLL_MS = 2000;
let lobbyShown = 0; // which showing of the lobby screen is current
// The strengths the gateway's API defines (BotStrength, but for its unset value), labelled by name.
const STRENGTHS = BotStrengthSchema.values
  .filter((value) => value.number !== BotStrength.UNSPECIFIED)
  .map((value) => ({ value: value.number, label: value.localName.toLowerCase() }));
let botStrength: number = BotStrength.HEURISTIC; // the strength a bot is added at, as `bg` does, until the player picks another

function seatsOf(lobby: Lobby): string {
  return lobby.seats.map((s) => s.player?.playerId ?? "").join(",");
}

/** While this lobby is on screen: show who joins, and go to the game once it starts. */
function followLobby(lobby: Lobby, shown: number): void {
  setTimeout(() => void guarded(async () => {
    if (shown !== lobbyShown || (document.getElementById("lobby") as HTMLElement).hidden) return;
    const fresh = (await lobbies.getLobby({ lobbyId: lobby.lobbyId })).lobby;
    if (shown !== lobbyShown || !fresh || (document.getElementById("lobby") as HTMLElement).hidden) return;
    if (fresh.gameId) await playScreen(fresh.gameId);
    else if (seatsOf(fresh) !== seatsOf(lobby)) await lobbyScreen(fresh);
    else followLobby(lobby, shown);
  }), LOBBY_POLL_MS);
}

async function lobbyScreen(lobby: Lobby): Promise<void> {
  const screen = show("lobby");
  followLobby(lobby, ++lobbyShown);
  const strength = el("select", { id: "bot-strength", title: "how well the bot plays" }, ...STRENGTHS.map(({ value, label }) => {
    const option = el("option", { value: String(value) }, label);
    option.selected = value === botStrength;
    return option;
  }));
  strength.addEventListener("change", () => { botStrength = Number(strength.value); });
  screen.replaceChildren(
    el("h2", {}, `Lobby of ${lobby.title}`),
    el("p", {}, "Lobby id ", el("code", { id: "lobby-id" }, lobby.lobbyId), lobby.inviteCode ? " invite code " : "",
      el("code", { id: "lobby-invite" }, lobby.inviteCode)),
    el("ol", { id: "lobby-seats" }, ...lobby.seats.map((s) =>
      s.player?.playerId ? el("li", { class: "taken" }, s.player.displayName) : el("li", {}, "open"))),
    el("p", {}, strength, button("Add bot", () => guarded(async () => {
      const updated = (await lobbies.addBot({ lobbyId: lobby.lobbyId, strength: botStrength })).lobby;
      if (updated) await lobbyScreen(updated);
    }), { id: "add-bot" }),
    button("Start", () => guarded(async () => {
      const started = await lobbies.startGame({ lobbyId: lobby.lobbyId });
      await playScreen(started.gameId);
    }), { id: "start" }),
    button("Refresh", () => guarded(async () => {
      const fresh = (await lobbies.getLobby({ lobbyId: lobby.lobbyId })).lobby;
      if (fresh?.gameId) await playScreen(fresh.gameId);
      else if (fresh) await lobbyScreen(fresh);
    })),
    button("Leave", () => guarded(async () => {
      await lobbies.leaveLobby({ lobbyId: lobby.lobbyId });
      await home();
    }))),
  );
}

// --- playing and spectating -----------------------------------------------------------------
let watching: AbortController | null = null;

function render(game: GameView): void {
  const screen = document.getElementById("game") as HTMLElement;
  const view = unpacked(game.view);
  const status = game.status === GameStatus.FINISHED ? "finished" : "active";
  screen.dataset.version = String(game.version);
  screen.dataset.status = status;
  const seat = game.seat === undefined ? "spectator" : `seat ${game.seat}`;
  const draw = BOARDS[game.title];
  const data = titleData(game.title);
  const actions = el("ol", { id: "actions" }, ...game.legalActions.map((legal, index) =>
    el("li", {}, button(legal.label, () => submit(game, index), { class: "action" }))));
  const legal = game.legalActions.map((l, index) => ({ index, action: unpacked(l.action), label: l.label }));
  const board = el("div", { id: "board" }, draw && view && data ? draw(view, data, legal) : "");
  boardActs(board, game);
  const scores = game.scores?.scores?.length ? el("p", { id: "scores" }, `Scores: ${game.scores.scores.map((s) => `seat ${s.seat}: ${s.total} (rank ${s.rank})`).join(", ")}`) : "";
  screen.replaceChildren(
    el("h2", {}, `${game.title}: ${status}, version ${game.version}, you are ${seat}`),
    el("p", {}, game.seats.map((s) => `${s.seat}: ${s.player?.displayName ?? ""}${game.actingSeats.includes(s.seat) ? " (to act)" : ""}`).join(" | ")),
    scores,
    game.status === GameStatus.FINISHED ? button("Replay", () => guarded(() => replayScreen(game.gameId)), { id: "open-replay" }) : "",
    button("Back", () => { watching?.abort(); return guarded(home); }),
    actions,
    board,
    el("div", { id: "tree" }, view !== null ? tree(view) : ""),
  );
}

/** Clicking a marked place on the board (or Enter or Space on it) takes its action; where several
 * apply, a small menu of their labels offers the choice. */
function boardActs(board: HTMLElement, game: GameView): void {
  const take = (target: EventTarget | null) => {
    const place = (target as Element | null)?.closest?.("[data-actions]");
    if (!place) return;
    const indices = (place.getAttribute("data-actions") ?? "").split(" ").map(Number);
    board.querySelector("#board-choice")?.remove();
    if (indices.length === 1) return void submit(game, indices[0]);
    board.prepend(el("div", { id: "board-choice", role: "menu" }, ...indices.map((index) =>
      button(game.legalActions[index].label, () => submit(game, index), { class: "choice", role: "menuitem" })),
    button("Cancel", () => board.querySelector("#board-choice")?.remove(), { class: "cancel" })));
    (board.querySelector("#board-choice button") as HTMLButtonElement | null)?.focus();
  };
  board.addEventListener("click", (event) => take(event.target));
  board.addEventListener("keydown", (event) => {
    if (event.key !== "Enter" && event.key !== " ") return;
    event.preventDefault();
    take(event.target);
  });
}

async function submit(game: GameView, index: number): Promise<void> {
  const action = game.legalActions[index];
  try {
    const reply = await games.submitAction({
      gameId: game.gameId, action: action.action, expectedVersion: game.version, requestId: crypto.randomUUID(),
    });
    if (reply.game && reply.game.version > Number((document.getElementById("game") as HTMLElement).dataset.version ?? -1)) render(reply.game);
  } catch (error) {
    if (error instanceof ConnectError && error.code === Code.Aborted) {
      say("the game moved on; the view is refreshed");
      const fresh = (await games.getGame({ gameId: game.gameId })).game;
      if (fresh) render(fresh);
    } else say(failure(error));
  }
}

async function playScreen(gameId: string): Promise<void> {
  watching?.abort();
  const controller = (watching = new AbortController());
  const screen = show("game");
  screen.dataset.gameId = gameId;
  let version = 0;
  let current: GameView | undefined;
  const log = el("ol", { id: "events" });
  while (!controller.signal.aborted) {
    try {
      for await (const reply of games.watchGame({ gameId, fromVersion: BigInt(version) }, { signal: controller.signal })) {
        for (const event of reply.events) log.append(el("li", {}, event.text));
        if (reply.game && (!current || reply.game.version >= current.version)) {
          await loadTitleData(reply.game.title);
          current = reply.game;
          version = Number(current.version);
          render(current);
          screen.append(el("h3", {}, "Events"), log);
        }
      }
      if (current?.status === GameStatus.FINISHED) return;
    } catch (error) {
      if (controller.signal.aborted) return;
      say(`watch stream lost (${failure(error)}); reconnecting from version ${version}`);
    }
    await new Promise((resolve) => setTimeout(resolve, RECONNECT_MS));
  }
}

// --- replays --------------------------------------------------------------------------------
async function replayScreen(gameId: string): Promise<void> {
  watching?.abort();
  const record = (await games.getGameRecord({ gameId })).record;
  const screen = show("replay");
  if (!record) return;
  const steps = record.actions;
  let at = 0;
  const detail = el("div", { id: "replay-step" });
  const draw = () => {
    const step = steps[at];
    detail.replaceChildren(
      el("p", { id: "replay-position" }, `move ${at + 1} of ${steps.length}: version ${step?.version ?? 0}, seat ${step?.seat ?? ""}`),
      step ? tree(unpacked(step.action), "action") : "",
    );
  };
  const check = el("span", { id: "replay-check" });
  screen.replaceChildren(
    el("h2", {}, `Replay of ${record.title} (${steps.length} moves, seed ${record.seedSha256.slice(0, 12)})`),
    el("p", {}, button("First", () => { at = 0; draw(); }), button("Previous", () => { at = Math.max(0, at - 1); draw(); }, { id: "replay-prev" }),
      button("Next", () => { at = Math.min(steps.length - 1, at + 1); draw(); }, { id: "replay-next" }),
      button("Last", () => { at = steps.length - 1; draw(); }, { id: "replay-last" }),
      button("Check the replay", () => guarded(async () => {
        const result = await games.replayGame({ gameId });
        check.textContent = result.consistent ? `consistent (${result.actionsReplayed} actions)` : `mismatch: ${result.mismatch}`;
      }), { id: "replay-verify" }), check,
      button("Back", () => guarded(home))),
    detail,
  );
  draw();
}

// --- start ----------------------------------------------------------------------------------
const params = new URLSearchParams(window.location.search);
if (!session.token) signIn();
else if (params.get("watch")) void playScreen(params.get("watch") ?? "");
else void guarded(home).catch(signIn);
