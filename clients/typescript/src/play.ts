// A client of the board-game gateway written as any third party would: it knows the public API in
// protos/boardgame/gateway/v1 and no game rules. It signs in as a guest, opens a lobby, fills the other
// seats with bots (or, with --humans, with more guests it plays itself), starts the game, plays every
// seat it holds by picking among the legal actions each view carries, and checks the finished game:
// final scores for every seat, the revealed seed matching the hash published at the start, and a
// consistent server-side replay. It prints one JSON summary line and exits 0, or exits 1 on failure.
// Refused as RATE_LIMITED, it waits the delay the refusal gives and retries; a watch stream that ends
// before the game is over is opened again from the last version seen.
// With --match, its players find the game through the matchmaker instead (FindMatch, after one search
// withdrawn by CancelMatch), follow their inboxes (WatchInbox, a stream that ends opened again from the
// last event received), chat in the game (SendChatMessage), then list their games (ListMyGames) and
// open a rematch (Rematch) whose invitations their inboxes get.
// Before it plays, it fetches the title's static data (GetTitleData: what a board is drawn from besides
// the views), checks its digest against the one ListTitles lists, decodes it as the game's own message
// with the types of protos/ alone, and asks again with that digest (answered as unchanged).
//
//   node dist/play.js --gateway 127.0.0.1:50050 --title puertorico --seats 4 --bots 3
//   node dist/play.js --gateway 127.0.0.1:50050 --title puertorico --seats 2 --bots 0 --humans 1 --match

import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";

import * as grpc from "@grpc/grpc-js";
import * as protoLoader from "@grpc/proto-loader";
import * as protobuf from "protobufjs";

import type { ProtoGrpcType } from "./generated/gateway";
import type { ChatMessage__Output } from "./generated/boardgame/gateway/v1/ChatMessage";
import type { FindMatchRequest } from "./generated/boardgame/gateway/v1/FindMatchRequest";
import type { FindMatchResponse__Output } from "./generated/boardgame/gateway/v1/FindMatchResponse";
import type { GameView__Output } from "./generated/boardgame/gateway/v1/GameView";
import type { InboxEvent__Output } from "./generated/boardgame/gateway/v1/InboxEvent";
import type { ListMyGamesResponse__Output } from "./generated/boardgame/gateway/v1/ListMyGamesResponse";
import type { Lobby__Output } from "./generated/boardgame/gateway/v1/Lobby";
import type { WatchGameResponse__Output } from "./generated/boardgame/gateway/v1/WatchGameResponse";
import type { WatchInboxResponse__Output } from "./generated/boardgame/gateway/v1/WatchInboxResponse";

interface Options {
  gateway: string;
  title: string;
  seats: number;
  bots: number;
  humans: number;
  seed: number;
  timeoutSeconds: number;
  protos: string;
  match: boolean;
}

function parseOptions(argv: string[]): Options {
  const options: Options = {
    gateway: process.env.GATEWAY_ADDRESS ?? "127.0.0.1:50050",
    title: "puertorico",
    seats: 4,
    bots: 3,
    humans: 0,
    seed: 1,
    timeoutSeconds: 300,
    protos: path.resolve(__dirname, "..", "..", "..", "protos"),
    match: false,
  };
  for (let i = 0; i < argv.length; i += 2) {
    const [flag, value] = [argv[i], argv[i + 1]];
    if (flag === "--match") {
      options.match = true;
      i -= 1; // a flag without a value
      continue;
    }
    if (value === undefined) throw new Error(`missing value after ${flag}`);
    switch (flag) {
      case "--gateway": options.gateway = value; break;
      case "--title": options.title = value; break;
      case "--seats": options.seats = Number(value); break;
      case "--bots": options.bots = Number(value); break;
      case "--humans": options.humans = Number(value); break;
      case "--seed": options.seed = Number(value); break;
      case "--timeout": options.timeoutSeconds = Number(value); break;
      case "--protos": options.protos = value; break;
      default: throw new Error(`unknown option ${flag}`);
    }
  }
  if (options.bots + options.humans !== options.seats - 1) {
    throw new Error("--bots plus --humans must fill every seat but the host's");
  }
  return options;
}

/** A player's inbox as `Session.followInbox` follows it. */
interface Inbox {
  opened: Promise<void>; // the first stream's opening message came
  reopened: number; // streams opened again after one ended
  failure: Error | null;
  stopped: boolean;
  stop: () => void;
}

/** A small seeded generator (mulberry32), so a run's choices can be repeated. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Api = ProtoGrpcType["boardgame"]["gateway"]["v1"];

// The rich error status a refusal carries in its `grpc-status-details-bin` trailer: the few fields of
// google.rpc.Status, google.protobuf.Any and google.rpc.ErrorInfo this client reads.
const richStatus = protobuf.Root.fromJSON({
  nested: {
    Status: {
      fields: {
        code: { type: "int32", id: 1 },
        message: { type: "string", id: 2 },
        details: { rule: "repeated", type: "Any", id: 3 },
      },
    },
    Any: { fields: { type_url: { type: "string", id: 1 }, value: { type: "bytes", id: 2 } } },
    ErrorInfo: {
      fields: {
        reason: { type: "string", id: 1 },
        domain: { type: "string", id: 2 },
        metadata: { keyType: "string", type: "string", id: 3 },
      },
    },
  },
} as protobuf.INamespace);
const StatusType = richStatus.lookupType("Status");
const ErrorInfoType = richStatus.lookupType("ErrorInfo");

const MAX_RATE_LIMITED_RETRIES = 50;
const RECONNECT_FIRST_MS = 100;
const RECONNECT_MAX_MS = 5_000;
const MAX_RECONNECTS = 20; // in a row, without a message in between
// A watch stream failing with one of these will not do better when opened again.
const FINAL_WATCH_CODES = new Set([
  grpc.status.INVALID_ARGUMENT,
  grpc.status.NOT_FOUND,
  grpc.status.PERMISSION_DENIED,
  grpc.status.UNAUTHENTICATED,
  grpc.status.FAILED_PRECONDITION,
]);

/** The ErrorInfo of a refusal (its reason and metadata), or null when it carries none. */
function errorInfo(error: grpc.ServiceError): { reason: string; metadata: Record<string, string> } | null {
  if (!error.metadata) return null;
  for (const bytes of error.metadata.get("grpc-status-details-bin")) {
    const status = StatusType.decode(bytes as Buffer) as unknown as { details: { type_url: string; value: Uint8Array }[] };
    for (const detail of status.details) {
      if (!detail.type_url.endsWith("/google.rpc.ErrorInfo")) continue;
      return ErrorInfoType.decode(detail.value) as unknown as { reason: string; metadata: Record<string, string> };
    }
  }
  return null;
}

/** How long a RATE_LIMITED refusal asks to wait (its ErrorInfo's `retry_after_ms`); null for any other error. */
function rateLimitDelay(error: grpc.ServiceError): number | null {
  if (error.code !== grpc.status.RESOURCE_EXHAUSTED) return null;
  const info = errorInfo(error);
  return info?.reason === "RATE_LIMITED" ? Number(info.metadata.retry_after_ms ?? 1000) : null;
}

/** Whether a refusal has this ErrorInfo reason. */
const refusedFor = (error: unknown, reason: string) => errorInfo(error as grpc.ServiceError)?.reason === reason;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Calls `then` once when a stream ends, with its error or null: a stream reports its end once, as an
 * error or as an end, but both events may come. */
function onEnd(stream: grpc.ClientReadableStream<unknown>, then: (error: grpc.ServiceError | null) => void): void {
  let ended = false;
  const end = (error: grpc.ServiceError | null) => {
    if (ended) return;
    ended = true;
    then(error);
  };
  stream.on("error", (error: grpc.ServiceError) => end(error));
  stream.on("end", () => end(null));
}

/** Every gateway service over one channel, with the bearer token of one player. */
class Session {
  readonly metadata = new grpc.Metadata();
  playerId = "";
  displayName = "";

  constructor(
    readonly accounts: InstanceType<Api["AccountService"]>,
    readonly catalog: InstanceType<Api["CatalogService"]>,
    readonly lobbies: InstanceType<Api["LobbyService"]>,
    readonly games: InstanceType<Api["GameService"]>,
    readonly matches: InstanceType<Api["MatchService"]>,
  ) {}

  /** The clients of every service, to close them. */
  get clients(): grpc.Client[] {
    return [this.accounts, this.catalog, this.lobbies, this.games, this.matches];
  }

  /** A unary call as a promise, with this session's token. Refused as RATE_LIMITED, it is sent again
   * after the delay the refusal gives (a refused call did nothing); UNAVAILABLE (the connection was
   * lost), after a growing pause (a move carries its request_id, so it is applied once). */
  async call<Req, Res>(client: grpc.Client, method: string, request: Req): Promise<Res> {
    for (let attempt = 0, lost = 0; ; attempt += 1) {
      try {
        return await this.callOnce<Req, Res>(client, method, request);
      } catch (error) {
        const failure = error as grpc.ServiceError;
        let delay = rateLimitDelay(failure);
        if (delay === null && failure.code === grpc.status.UNAVAILABLE && lost < MAX_RECONNECTS) {
          delay = Math.min(RECONNECT_MAX_MS, RECONNECT_FIRST_MS * 2 ** lost);
          lost += 1;
        }
        if (delay === null || attempt >= MAX_RATE_LIMITED_RETRIES) throw error;
        await sleep(delay);
      }
    }
  }

  private callOnce<Req, Res>(client: grpc.Client, method: string, request: Req): Promise<Res> {
    return new Promise((resolve, reject) => {
      const fn = (client as unknown as Record<string, Function>)[method].bind(client);
      fn(request, this.metadata, { deadline: Date.now() + 30_000 }, (error: grpc.ServiceError | null, response: Res) =>
        error ? reject(error) : resolve(response),
      );
    });
  }

  async signInAsGuest(name: string): Promise<void> {
    const response = await this.call<object, { session: { token: string; player: { player_id: string; display_name: string } } }>(
      this.accounts, "CreateGuest", { display_name: name },
    );
    this.metadata.set("authorization", `Bearer ${response.session.token}`);
    this.playerId = response.session.player.player_id;
    this.displayName = response.session.player.display_name;
  }

  /** FindMatch: the search's last message (MATCHED with the game's id, or CANCELLED), once its stream
   * ends; `onSearching` sees each SEARCHING message on the way (the first at once, with the ticket). */
  findMatch(
    request: FindMatchRequest, onSearching: (message: FindMatchResponse__Output) => void = () => {},
  ): Promise<FindMatchResponse__Output> {
    return new Promise((resolve, reject) => {
      let last: FindMatchResponse__Output | null = null;
      const stream = this.matches.FindMatch(request, this.metadata);
      stream.on("data", (message: FindMatchResponse__Output) => {
        last = message;
        if (message.status === "MATCH_STATUS_SEARCHING") onSearching(message);
      });
      stream.on("error", reject);
      stream.on("end", () => (last ? resolve(last) : reject(new Error("the search ended without a message"))));
    });
  }

  /** CancelMatch: withdraw this player's search (its FindMatch ends CANCELLED). */
  cancelMatch(): Promise<{ ticket_id: string }> {
    return this.call(this.matches, "CancelMatch", {});
  }

  /** ListMyGames: one page of this player's games, live ones first (their turn first). */
  listMyGames(pageToken = ""): Promise<ListMyGamesResponse__Output> {
    return this.call(this.games, "ListMyGames", { page_token: pageToken });
  }

  /** WatchInbox, followed until `stop()`: `onEvent` gets each event after `fromEventId` (empty: from
   * now on) once, oldest first. A stream that fails or ends is opened again from the last event received
   * (at first, the newest event its opening message named), after a growing pause or the pause a
   * RATE_LIMITED refusal asks for, so the events sent meanwhile come first. `opened` resolves at the first
   * opening message (from then on no new event is missed); `failure` is set (and `opened` rejected if
   * still pending), the inbox no longer followed, when a stream is refused for good (FINAL_WATCH_CODES)
   * or keeps ending without a message. */
  followInbox(fromEventId: string, onEvent: (event: InboxEvent__Output) => void): Inbox {
    let last = fromEventId;
    let reconnects = 0;
    let stream: grpc.ClientReadableStream<WatchInboxResponse__Output> | null = null;
    let markOpened = () => {};
    let markFailed = (_error: Error) => {};
    const inbox: Inbox = {
      opened: new Promise<void>((resolve, reject) => {
        markOpened = resolve;
        markFailed = reject;
      }),
      reopened: 0,
      failure: null,
      stopped: false,
      stop: () => {
        inbox.stopped = true;
        stream?.cancel();
      },
    };
    const reopen = (error: grpc.ServiceError | null) => {
      if (inbox.stopped) return;
      if ((error && FINAL_WATCH_CODES.has(error.code)) || reconnects >= MAX_RECONNECTS) {
        inbox.failure = error ?? new Error("the inbox stream keeps ending without a message");
        inbox.stopped = true;
        markFailed(inbox.failure);
        return;
      }
      const delay = (error && rateLimitDelay(error)) ?? Math.min(RECONNECT_MAX_MS, RECONNECT_FIRST_MS * 2 ** reconnects);
      reconnects += 1;
      inbox.reopened += 1;
      setTimeout(open, delay);
    };
    const open = () => {
      if (inbox.stopped) return;
      const current = this.games.WatchInbox({ from_event_id: last }, this.metadata);
      stream = current;
      current.on("data", (message: WatchInboxResponse__Output) => {
        reconnects = 0;
        if (message.event) {
          last = message.event.event_id;
          onEvent(message.event);
        } else {
          if (!last) last = message.newest_event_id;
          markOpened();
        }
      });
      onEnd(current, reopen);
    };
    open();
    return inbox;
  }

  /** Rematch: a lobby of the finished game's title, options and players, the others invited. */
  async rematch(gameId: string): Promise<Lobby__Output> {
    return (await this.call<object, { lobby: Lobby__Output }>(this.games, "Rematch", { game_id: gameId })).lobby;
  }

  /** SendChatMessage: a message on a game's players' channel (every watcher of the game gets it). */
  async sendChat(gameId: string, text: string): Promise<ChatMessage__Output> {
    const request = { game_id: gameId, text, channel: "CHAT_CHANNEL_PLAYERS" };
    return (await this.call<object, { message: ChatMessage__Output }>(this.games, "SendChatMessage", request)).message;
  }
}

function connect(options: Options): () => Session {
  const definition = protoLoader.loadSync("boardgame/gateway/v1/gateway.proto", {
    includeDirs: [options.protos],
    keepCase: true,
    longs: String,
    enums: String,
    defaults: true,
    oneofs: true,
  });
  const api = (grpc.loadPackageDefinition(definition) as unknown as ProtoGrpcType).boardgame.gateway.v1;
  const credentials = grpc.credentials.createInsecure();
  return () =>
    new Session(
      new api.AccountService(options.gateway, credentials),
      new api.CatalogService(options.gateway, credentials),
      new api.LobbyService(options.gateway, credentials),
      new api.GameService(options.gateway, credentials),
      new api.MatchService(options.gateway, credentials),
    );
}

/** Play one seat until the game is over, following the watch stream; the final view. A stream that
 * fails or ends early is opened again from the last version received, after a growing pause (or the
 * pause a RATE_LIMITED refusal asks for). `onOpen` is called at the first view, `onChat` with each
 * chat message the stream brings. */
function playSeat(
  session: Session, gameId: string, choose: () => number, timeoutMs: number,
  onOpen: () => void = () => {}, onChat: (chat: ChatMessage__Output) => void = () => {},
): Promise<{ final: GameView__Output; moves: number; reopened: number }> {
  return new Promise((resolve, reject) => {
    let moves = 0;
    let reopened = 0;
    let lastActed = -1n;
    let seen = 0n; // the last version a view came with: where a reopened stream resumes
    let reconnects = 0;
    let done = false;
    let stream: grpc.ClientReadableStream<WatchGameResponse__Output> | null = null;
    const pending: Promise<void>[] = [];
    const timer = setTimeout(() => fail(new Error(`game not over within ${timeoutMs / 1000} s`)), timeoutMs);
    const fail = (error: Error) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      stream?.cancel();
      reject(error);
    };
    const onView = (game: GameView__Output) => {
      onOpen();
      const version = BigInt(game.version);
      if (version > seen) seen = version;
      if (game.status === "GAME_STATUS_FINISHED") {
        done = true;
        clearTimeout(timer);
        stream?.cancel();
        // The stream can bring the final view before the answer to this seat's last move.
        Promise.allSettled(pending).then(() => resolve({ final: game, moves, reopened }));
        return;
      }
      if (game.legal_actions.length === 0 || version <= lastActed) return;
      lastActed = version;
      const pick = game.legal_actions[Math.floor(choose() * game.legal_actions.length)];
      const submitted = session
        .call(session.games, "SubmitAction", {
          game_id: gameId,
          action: pick.action,
          expected_version: game.version,
          request_id: `${session.playerId}-${game.version}`,
        })
        .then(() => { moves += 1; })
        .catch((error: grpc.ServiceError) => {
          // Another seat moved first: the stream brings the newer view, and the choice is made again.
          if (error.code !== grpc.status.ABORTED) fail(error);
        });
      pending.push(submitted);
    };
    const reopen = (error: grpc.ServiceError | null) => {
      if (done) return;
      if (error && FINAL_WATCH_CODES.has(error.code)) return fail(error);
      if (reconnects >= MAX_RECONNECTS) {
        return fail(error ?? new Error("the watch stream keeps ending before the game is over"));
      }
      const delay = (error && rateLimitDelay(error)) ?? Math.min(RECONNECT_MAX_MS, RECONNECT_FIRST_MS * 2 ** reconnects);
      reconnects += 1;
      reopened += 1;
      setTimeout(open, delay);
    };
    const open = () => {
      if (done) return;
      const current = session.games.WatchGame({ game_id: gameId, from_version: seen.toString() }, session.metadata);
      stream = current;
      current.on("data", (message: WatchGameResponse__Output) => {
        reconnects = 0;
        if (message.chat) onChat(message.chat);
        if (message.game && !done) onView(message.game);
      });
      onEnd(current, reopen);
    };
    open();
  });
}

/** Every player's search (the host's first one withdrawn by CancelMatch): the game they are matched
 * into, and whether the withdrawn search ended CANCELLED. */
async function findMatch(players: Session[], options: Options): Promise<{ gameId: string; cancelledFirst: boolean }> {
  const host = players[0];
  const request: FindMatchRequest = {
    title: options.title,
    seat_count: options.seats,
    bots_after_seconds: options.bots > 0 ? 1 : 600,
    bot_strength: "BOT_STRENGTH_RANDOM",
  };
  let cancelling: Promise<unknown> = Promise.resolve();
  const withdrawn = await host.findMatch(request, () => {
    cancelling = host.cancelMatch();
  });
  await cancelling;
  const found = await Promise.all(players.map((player) => player.findMatch(request)));
  const games = new Set(found.map((message) => message.game_id));
  if (found.some((message) => message.status !== "MATCH_STATUS_MATCHED") || games.size !== 1) {
    throw new Error(`the players were not matched into one game: ${JSON.stringify(found)}`);
  }
  return { gameId: found[0].game_id, cancelledFirst: withdrawn.status === "MATCH_STATUS_CANCELLED" };
}

/** Wait until `check` holds (polled every 50 ms), or fail saying `what`. */
async function eventually(check: () => boolean, what: string, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

/** Every message type of the protos in `protos` (the games' packages too), to decode what an Any holds;
 * the well-known google.protobuf files come with protobufjs. */
function messageTypes(protos: string): protobuf.Root {
  const root = new protobuf.Root();
  const bundled = path.dirname(require.resolve("protobufjs/package.json"));
  root.resolvePath = (_origin, target) => {
    const mine = path.join(protos, target);
    return fs.existsSync(mine) ? mine : path.join(bundled, target);
  };
  const files: string[] = [];
  const walk = (folder: string): void => {
    for (const entry of fs.readdirSync(path.join(protos, folder), { withFileTypes: true })) {
      const name = path.join(folder, entry.name);
      if (entry.isDirectory()) walk(name);
      else if (name.endsWith(".proto")) files.push(name);
    }
  };
  walk("boardgame");
  root.loadSync(files, { keepCase: true });
  return root;
}

interface GameData {
  data: { type_url: string; value: Buffer } | null;
  data_version: string;
  digest: string;
}

/** The title's static data, checked and decoded: its type, version, digest and the fields it sets. */
async function titleData(session: Session, title: { name: string; data_type: string; data_digest: string }, protos: string) {
  const { data } = await session.call<object, { data: GameData }>(session.catalog, "GetTitleData", { title: title.name });
  const value = data.data?.value ?? Buffer.alloc(0);
  const digest = createHash("sha256").update(value).digest("hex");
  if (digest !== data.digest || digest !== title.data_digest) {
    throw new Error(`the data of ${title.name} does not have the digest listed for it`);
  }
  if (data.data?.type_url !== `type.googleapis.com/${title.data_type}`) {
    throw new Error(`the data of ${title.name} is a ${data.data?.type_url}, not the ${title.data_type} listed`);
  }
  const decoded = messageTypes(protos).lookupType(title.data_type).decode(value).toJSON();
  const again = await session.call<object, { unchanged: boolean; data: GameData }>(
    session.catalog, "GetTitleData", { title: title.name, known_digest: digest },
  );
  return {
    type: title.data_type,
    version: data.data_version,
    digest,
    fields: Object.keys(decoded).sort(),
    unchanged_when_known: again.unchanged && !again.data.data?.value?.length,
  };
}

async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2));
  const newSession = connect(options);
  const choose = random(options.seed);

  const host = newSession();
  await host.signInAsGuest("ts-host");
  type Offered = { name: string; data_type: string; data_digest: string };
  const titles = await host.call<object, { titles: Offered[] }>(host.catalog, "ListTitles", {});
  const offered = titles.titles.find((title) => title.name === options.title);
  if (!offered) {
    throw new Error(`the gateway does not offer ${options.title}`);
  }
  const data = await titleData(host, offered, options.protos);
  const players = [host];
  for (let i = 0; i < options.humans; i += 1) {
    const guest = newSession();
    await guest.signInAsGuest(`ts-guest-${i + 1}`);
    players.push(guest);
  }
  const inboxes = players.map(() => [] as InboxEvent__Output[]);
  const openInboxes = options.match
    ? players.map((player, index) => player.followInbox("", (event) => inboxes[index].push(event)))
    : [];
  await Promise.all(openInboxes.map((inbox) => inbox.opened));
  let gameId: string;
  let cancelledFirst = false;
  if (options.match) {
    ({ gameId, cancelledFirst } = await findMatch(players, options));
  } else {
    const created = await host.call<object, { lobby: { lobby_id: string } }>(host.lobbies, "CreateLobby", {
      title: options.title,
      seat_count: options.seats,
      seating: "SEATING_FIXED",
    });
    const lobbyId = created.lobby.lobby_id;
    for (let i = 0; i < options.bots; i += 1) {
      await host.call(host.lobbies, "AddBot", { lobby_id: lobbyId, strength: "BOT_STRENGTH_RANDOM" });
    }
    // Sent again after a lost connection, a join whose reply was lost is refused as ALREADY_SEATED,
    // and a start as LOBBY_NOT_OPEN: both are done, and a started lobby names its game (docs/errors.md).
    for (const guest of players.slice(1)) {
      try {
        await guest.call(guest.lobbies, "JoinLobby", { lobby_id: lobbyId });
      } catch (error) {
        if (!refusedFor(error, "ALREADY_SEATED")) throw error;
      }
    }
    try {
      gameId = (await host.call<object, { game_id: string }>(host.lobbies, "StartGame", { lobby_id: lobbyId })).game_id;
    } catch (error) {
      if (!refusedFor(error, "LOBBY_NOT_OPEN")) throw error;
      const shown = await host.call<object, { lobby: { game_id: string } }>(host.lobbies, "GetLobby", { lobby_id: lobbyId });
      if (!shown.lobby.game_id) throw error;
      gameId = shown.lobby.game_id;
    }
  }

  const timeoutMs = options.timeoutSeconds * 1000;
  const chats = players.map(() => [] as string[]);
  const opened = players.map(() => {
    let open = () => {};
    const promise = new Promise<void>((resolve) => { open = resolve; });
    return { promise, open: () => open() };
  });
  const playing = Promise.all(
    players.map((player, index) =>
      playSeat(player, gameId, choose, timeoutMs, opened[index].open, (chat) => chats[index].push(chat.text)),
    ),
  );
  const chatText = "good luck";
  if (options.match) {
    await Promise.all(opened.map((seat) => seat.promise));
    await host.sendChat(gameId, chatText);
  }
  const results = await playing;
  const final = results[0].final;
  const scores = final.scores;
  if (!scores || !scores.final || scores.scores.length !== options.seats || scores.winners.length === 0) {
    throw new Error(`no final scores for every seat: ${JSON.stringify(scores)}`);
  }

  const { record } = await host.call<object, { record: { seed: Buffer; seed_sha256: string; actions: unknown[] } }>(
    host.games, "GetGameRecord", { game_id: gameId },
  );
  const seedHash = createHash("sha256").update(record.seed).digest("hex");
  if (seedHash !== record.seed_sha256 || seedHash !== final.seed_sha256) {
    throw new Error("the revealed seed does not match the hash published at the start");
  }
  const replay = await host.call<object, { consistent: boolean; actions_replayed: number; mismatch: string }>(
    host.games, "ReplayGame", { game_id: gameId },
  );
  if (!replay.consistent || replay.actions_replayed !== record.actions.length) {
    throw new Error(`the replay is not consistent: ${replay.mismatch}`);
  }

  const followed = {
    matched: options.match,
    search_cancelled_first: cancelledFirst,
    chat_received: 0,
    my_games_listed: 0,
    inbox_your_turns: 0,
    rematch_invited: 0,
    inbox_streams_reopened: 0,
  };
  if (options.match) {
    followed.chat_received = chats.filter((texts) => texts.includes(chatText)).length;
    for (const player of players) {
      const page = await player.listMyGames();
      if (page.games.some((game) => game.game_id === gameId && game.status === "GAME_STATUS_FINISHED")) {
        followed.my_games_listed += 1;
      }
    }
    const yourTurn = (event: InboxEvent__Output) => event.kind === "INBOX_EVENT_KIND_YOUR_TURN" && event.game_id === gameId;
    followed.inbox_your_turns = inboxes.reduce((sum, events) => sum + events.filter(yourTurn).length, 0);
    const lobby = await host.rematch(gameId);
    const invited = (events: InboxEvent__Output[]) =>
      events.some((event) => event.kind === "INBOX_EVENT_KIND_INVITED" && event.lobby_id === lobby.lobby_id);
    await eventually(() => {
      const failed = openInboxes.find((inbox) => inbox.failure);
      if (failed) throw failed.failure;
      return inboxes.slice(1).every(invited);
    }, "the rematch's invitations");
    followed.rematch_invited = inboxes.slice(1).filter(invited).length;
    await host.call(host.lobbies, "LeaveLobby", { lobby_id: lobby.lobby_id });
    for (const inbox of openInboxes) inbox.stop();
    followed.inbox_streams_reopened = openInboxes.reduce((sum, inbox) => sum + inbox.reopened, 0);
  }

  console.log(JSON.stringify({
    game_id: gameId,
    title: options.title,
    seats: options.seats,
    bots: options.bots,
    humans: players.length,
    moves_by_this_client: results.reduce((sum, result) => sum + result.moves, 0),
    watch_streams_reopened: results.reduce((sum, result) => sum + result.reopened, 0),
    actions: record.actions.length,
    winners: scores.winners,
    totals: scores.scores.map((score) => score.total),
    replay_consistent: replay.consistent,
    title_data: data,
    ...followed,
  }));
  for (const player of players) {
    for (const client of player.clients) client.close();
  }
}

main().catch((error: Error) => {
  console.error(`play failed: ${error.message}`);
  process.exit(1);
});
