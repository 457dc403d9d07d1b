// One lobby: its seats (who joins shows within a poll), bots at a chosen strength, the start, and the
// game once it starts (for the host and for everyone seated).
import { lobbies } from "../api";
import { button, card, el, say, show } from "../dom";
import { t } from "../i18n";
import { BotStrength, LobbyStatus, Visibility, type Lobby } from "../gen/boardgame/gateway/v1/gateway_pb";
import { account, every, go, guarded, loadTitles, strengthLabel, strengthSelect, titleName, type Screen } from "./common";
import { takenSeats } from "./lobbies";

const POLL_MS = 2000;
let botStrength: number = BotStrength.HEURISTIC; // the strength a bot is added at, as `bg` does, until the player picks another

function seatList(lobby: Lobby): HTMLElement {
  return el("ol", { id: "lobby-seats", class: "seat-list" }, ...lobby.seats.map((seat) => {
    const player = seat.player;
    if (!player?.playerId) return el("li", { class: "open" }, t("web.lobby.open_seat", "open"));
    const bot = seat.botStrength !== BotStrength.UNSPECIFIED;
    return el("li", { class: `taken${player.playerId === account.player?.playerId ? " me" : ""}` }, el("span", { class: "seat-name" }, player.displayName),
      bot ? el("span", { class: "tag" }, t("web.lobby.bot_tag", "bot, {strength}", { strength: strengthLabel(seat.botStrength) })) : null,
      player.playerId === lobby.hostPlayerId ? el("span", { class: "tag" }, t("web.lobby.host_tag", "host")) : null);
  }));
}

function seatsOf(lobby: Lobby): string {
  return lobby.seats.map((s) => s.player?.playerId ?? "").join(",");
}

export async function lobbyScreen(screen: Screen, lobbyId: string): Promise<void> {
  await loadTitles();
  if (screen.signal.aborted) return; // left (or signed out) meanwhile
  let lobby = (await lobbies.getLobby({ lobbyId })).lobby;
  if (!lobby || screen.signal.aborted) return;
  if (lobby.gameId) return go(`game/${lobby.gameId}`);
  const section = show("lobby");
  const host = lobby.hostPlayerId === account.player?.playerId;
  const seats = el("div", {}, seatList(lobby));
  const count = el("p", { id: "lobby-count", class: "muted" });
  const update = (fresh: Lobby) => {
    const changed = seatsOf(fresh) !== seatsOf(lobby as Lobby);
    lobby = fresh;
    if (changed) seats.replaceChildren(seatList(fresh));
    count.textContent = t("web.lobby.count", "{taken} of {seats} seats taken", { taken: takenSeats(fresh), seats: fresh.seatCount });
  };
  update(lobby);
  const strength = strengthSelect("bot-strength", botStrength, lobby.title);
  strength.addEventListener("change", () => { botStrength = Number(strength.value); });
  const options = lobby.options.map((o) => `${o.name}: ${o.value}`).join(", ");
  section.replaceChildren(card(t("web.lobby.heading", "Lobby of {title}", { title: titleName(lobby.title) }),
    el("p", { class: "muted" },
      t("web.lobby.id", "Lobby id"), " ", el("code", { id: "lobby-id" }, lobby.lobbyId),
      lobby.inviteCode ? ` · ${t("web.lobby.invite_code", "invite code")} ` : "",
      el("code", { id: "lobby-invite" }, lobby.inviteCode),
      lobby.visibility === Visibility.PRIVATE ? ` · ${t("web.lobby.private", "private")}` : ""),
    options ? el("p", { class: "muted" }, t("web.lobby.options", "Options: {options}", { options })) : null,
    count,
    seats,
    host
      ? el("div", { class: "row" },
        strength,
        button(t("web.lobby.add_bot", "Add bot"), () => guarded(async () => {
          const updated = (await lobbies.addBot({ lobbyId, strength: botStrength })).lobby;
          if (updated) update(updated);
        }), { id: "add-bot" }),
        button(t("web.lobby.start", "Start"), () => guarded(async () => {
          const started = await lobbies.startGame({ lobbyId });
          go(`game/${started.gameId}`);
        }), { id: "start", class: "primary" }))
      : el("p", { class: "muted" }, t("web.lobby.waiting", "Waiting for the host to start the game.")),
    el("div", { class: "row" },
      button(t("web.lobby.refresh", "Refresh"), () => guarded(async () => follow()), { id: "lobby-refresh" }),
      button(t("web.lobby.leave", "Leave"), () => guarded(async () => {
        await lobbies.leaveLobby({ lobbyId });
        go("lobbies");
      }), { id: "leave-lobby" })),
  ));
  const follow = async () => {
    const fresh = (await lobbies.getLobby({ lobbyId })).lobby;
    if (screen.signal.aborted || !fresh) return;
    if (fresh.gameId) return go(`game/${fresh.gameId}`);
    if (fresh.status === LobbyStatus.CLOSED) {
      say(t("web.lobby.closed", "The lobby was closed."));
      return go("lobbies");
    }
    update(fresh);
  };
  every(POLL_MS, screen.signal, follow);
}
