// A client of the board-game gateway written as any third party would: it knows the public API in
// protos/boardgame/gateway/v1 and no game rules. It signs in as a guest, opens a lobby, fills the other
// seats with bots (or, with --humans, with more guests it plays itself), starts the game, plays every
// seat it holds by picking among the legal actions each view carries, and checks the finished game:
// final scores for every seat, the revealed seed matching the hash published at the start, and a
// consistent server-side replay. It prints one JSON summary line and exits 0, or exits 1 on failure.
//
//   node dist/play.js --gateway 127.0.0.1:50050 --title puertorico --seats 4 --bots 3

import { createHash } from "node:crypto";
import * as path from "node:path";

import * as grpc from "@grpc/grpc-js";
import * as protoLoader from "@grpc/proto-loader";

import type { ProtoGrpcType } from "./generated/gateway";
import type { GameView__Output } from "./generated/boardgame/gateway/v1/GameView";
import type { WatchGameResponse__Output } from "./generated/boardgame/gateway/v1/WatchGameResponse";

interface Options {
  gateway: string;
  title: string;
  seats: number;
  bots: number;
  humans: number;
  seed: number;
  timeoutSeconds: number;
  protos: string;
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
  };
  for (let i = 0; i < argv.length; i += 2) {
    const [flag, value] = [argv[i], argv[i + 1]];
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
  ) {}

  /** A unary call as a promise, with this session's token. */
  call<Req, Res>(client: grpc.Client, method: string, request: Req): Promise<Res> {
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
    );
}

/** Play one seat until the game is over, following the watch stream; the final view. */
function playSeat(session: Session, gameId: string, choose: () => number, timeoutMs: number): Promise<{ final: GameView__Output; moves: number }> {
  return new Promise((resolve, reject) => {
    let moves = 0;
    let lastActed = -1n;
    let done = false;
    const pending: Promise<void>[] = [];
    const stream = session.games.WatchGame({ game_id: gameId, from_version: 0 }, session.metadata);
    const timer = setTimeout(() => fail(new Error(`game not over within ${timeoutMs / 1000} s`)), timeoutMs);
    const fail = (error: Error) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      stream.cancel();
      reject(error);
    };
    stream.on("data", (message: WatchGameResponse__Output) => {
      const game = message.game;
      if (!game || done) return;
      if (game.status === "GAME_STATUS_FINISHED") {
        done = true;
        clearTimeout(timer);
        // The stream can bring the final view before the answer to this seat's last move.
        Promise.allSettled(pending).then(() => resolve({ final: game, moves }));
        return;
      }
      const version = BigInt(game.version);
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
    });
    stream.on("error", (error: grpc.ServiceError) => {
      if (error.code !== grpc.status.CANCELLED) fail(error);
    });
    stream.on("end", () => {
      if (!done) fail(new Error("the watch stream ended before the game was over"));
    });
  });
}

async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2));
  const newSession = connect(options);
  const choose = random(options.seed);

  const host = newSession();
  await host.signInAsGuest("ts-host");
  const titles = await host.call<object, { titles: { name: string }[] }>(host.catalog, "ListTitles", {});
  if (!titles.titles.some((title) => title.name === options.title)) {
    throw new Error(`the gateway does not offer ${options.title}`);
  }
  const created = await host.call<object, { lobby: { lobby_id: string } }>(host.lobbies, "CreateLobby", {
    title: options.title,
    seat_count: options.seats,
    seating: "SEATING_FIXED",
  });
  const lobbyId = created.lobby.lobby_id;
  for (let i = 0; i < options.bots; i += 1) {
    await host.call(host.lobbies, "AddBot", { lobby_id: lobbyId, strength: "BOT_STRENGTH_RANDOM" });
  }
  const players = [host];
  for (let i = 0; i < options.humans; i += 1) {
    const guest = newSession();
    await guest.signInAsGuest(`ts-guest-${i + 1}`);
    await guest.call(guest.lobbies, "JoinLobby", { lobby_id: lobbyId });
    players.push(guest);
  }
  const started = await host.call<object, { game_id: string }>(host.lobbies, "StartGame", { lobby_id: lobbyId });
  const gameId = started.game_id;

  const timeoutMs = options.timeoutSeconds * 1000;
  const results = await Promise.all(players.map((player) => playSeat(player, gameId, choose, timeoutMs)));
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

  console.log(JSON.stringify({
    game_id: gameId,
    title: options.title,
    seats: options.seats,
    bots: options.bots,
    humans: players.length,
    moves_by_this_client: results.reduce((sum, result) => sum + result.moves, 0),
    actions: record.actions.length,
    winners: scores.winners,
    totals: scores.scores.map((score) => score.total),
    replay_consistent: replay.consistent,
  }));
  for (const player of players) {
    for (const client of [player.accounts, player.catalog, player.lobbies, player.games]) client.close();
  }
}

main().catch((error: Error) => {
  console.error(`play failed: ${error.message}`);
  process.exit(1);
});
