// The gateway's services over the Connect protocol (binary), the caller's token as its bearer
// metadata, exactly as the native gRPC clients send it.
import { createClient, type Client, type Interceptor } from "@connectrpc/connect";
import { createConnectTransport } from "@connectrpc/connect-web";
import {
  AccountService,
  CatalogService,
  GameService,
  LeaderboardService,
  LobbyService,
  MatchService,
} from "./gen/boardgame/gateway/v1/gateway_pb";
import { TournamentService } from "./gen/boardgame/gateway/v1/tournaments_pb";

export const session = { token: localStorage.getItem("bg-token") ?? "" };

export function keepToken(token: string): void {
  session.token = token;
  if (token) localStorage.setItem("bg-token", token);
  else localStorage.removeItem("bg-token");
}

const bearer: Interceptor = (next) => async (request) => {
  if (session.token) request.header.set("authorization", `Bearer ${session.token}`);
  return next(request);
};

const transport = createConnectTransport({
  baseUrl: window.location.origin,
  useBinaryFormat: true,
  interceptors: [bearer],
});

export const accounts: Client<typeof AccountService> = createClient(AccountService, transport);
export const catalog: Client<typeof CatalogService> = createClient(CatalogService, transport);
export const lobbies: Client<typeof LobbyService> = createClient(LobbyService, transport);
export const games: Client<typeof GameService> = createClient(GameService, transport);
export const leaderboard: Client<typeof LeaderboardService> = createClient(LeaderboardService, transport);
export const match: Client<typeof MatchService> = createClient(MatchService, transport);
export const tournaments: Client<typeof TournamentService> = createClient(TournamentService, transport);
