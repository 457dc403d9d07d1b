// The lobbies screen (the page's home): the open lobbies to join, a new lobby (with what its game lets
// players take back), joining by invite, and watching or replaying a game by its id.
import { timestampDate } from "@bufbuild/protobuf/wkt";
import { lobbies } from "../api";
import { ago, button, card, el, field, select, show } from "../dom";
import { t } from "../i18n";
import { BotTakebacks, UndoPolicy, Visibility, type Lobby } from "../gen/boardgame/gateway/v1/gateway_pb";
import { account, every, gameChoice, go, guarded, loadTitlesWithCatalogs, titleName, type Screen } from "./common";

const REFRESH_MS = 5000;
const LISTED = 50;

/** The lobby's take-back settings as CreateLobby takes them, each at the API's default: undo and
 * takebacks allowed, rated, bots accepting a takeback. */
function takebackSettings(): { element: HTMLElement; undo: () => UndoPolicy; unrated: () => boolean; botTakebacks: () => BotTakebacks } {
  const undo = select({ id: "lobby-undo" }, [
    { value: String(UndoPolicy.ALLOWED), label: t("web.lobbies.undo_allowed", "allowed (takebacks too, when unrated)") },
    { value: String(UndoPolicy.OWN_TURN_ONLY), label: t("web.lobbies.undo_own_turn", "within your own turn only") },
    { value: String(UndoPolicy.OFF), label: t("web.lobbies.undo_off", "off: every decision stands") },
  ], String(UndoPolicy.ALLOWED));
  const unrated = el("input", { id: "lobby-unrated", type: "checkbox" });
  const bots = select({ id: "lobby-bot-takebacks" }, [
    { value: String(BotTakebacks.ACCEPT), label: t("web.lobbies.bots_accept", "accept") },
    { value: String(BotTakebacks.DECLINE), label: t("web.lobbies.bots_decline", "decline") },
  ], String(BotTakebacks.ACCEPT));
  return {
    element: el("div", { class: "takeback-settings" },
      el("div", { class: "row" },
        field(t("web.lobbies.undo", "Undo"), undo),
        field(t("web.lobbies.bot_takebacks", "Bots asked for a takeback"), bots)),
      el("label", { class: "check" }, unrated, t("web.lobbies.unrated", "Unrated: the game leaves ratings as they were (needed for takebacks)"))),
    undo: () => Number(undo.value) as UndoPolicy,
    unrated: () => unrated.checked,
    botTakebacks: () => Number(bots.value) as BotTakebacks,
  };
}

export function takenSeats(lobby: Lobby): number {
  return lobby.seats.filter((seat) => seat.player?.playerId).length;
}

function hostName(lobby: Lobby): string {
  return lobby.seats.find((seat) => seat.player?.playerId === lobby.hostPlayerId)?.player?.displayName ?? "";
}

function lobbyCard(lobby: Lobby): HTMLElement {
  const mine = lobby.seats.some((seat) => seat.player?.playerId === account.player?.playerId) || lobby.hostPlayerId === account.player?.playerId;
  const taken = takenSeats(lobby);
  const options = lobby.options.map((o) => `${o.name}: ${o.value}`).join(", ");
  return el("li", { class: "lobby-card", "data-lobby-id": lobby.lobbyId },
    el("div", { class: "lobby-main" },
      el("strong", {}, titleName(lobby.title)),
      el("span", { class: "seats-taken" }, t("web.lobbies.seats_taken", "{taken} of {seats} seats taken", { taken, seats: lobby.seatCount })),
      el("span", { class: "muted" }, t("web.lobbies.hosted_by", "hosted by {host}, {when}", {
        host: hostName(lobby) || t("web.lobbies.unknown_host", "someone"),
        when: ago(lobby.createdAt ? timestampDate(lobby.createdAt) : undefined),
      })),
      options ? el("span", { class: "muted small" }, options) : null),
    mine
      ? button(t("web.lobbies.open", "Open"), () => go(`lobby/${lobby.lobbyId}`), { class: "join" })
      : button(t("web.lobbies.join", "Join"), () => guarded(async () => {
        const joined = (await lobbies.joinLobby({ lobbyId: lobby.lobbyId })).lobby;
        if (joined) go(`lobby/${joined.lobbyId}`);
      }), { class: "join primary" }));
}

export async function lobbiesScreen(screen: Screen): Promise<void> {
  const titles = await loadTitlesWithCatalogs();
  if (screen.signal.aborted) return; // left (or signed out) meanwhile
  const section = show("lobbies");
  const choice = gameChoice("");
  const privateLobby = el("input", { id: "private", type: "checkbox" });
  const takebacks = takebackSettings();
  const lobbyId = el("input", { id: "invite-code", placeholder: t("web.lobbies.lobby_id_placeholder", "lobby id") });
  const invite = el("input", { id: "invite-secret", placeholder: t("web.lobbies.invite_placeholder", "invite code") });
  const watchId = el("input", { id: "watch-id", placeholder: t("web.lobbies.game_id_placeholder", "game id") });
  const open = el("ul", { id: "open-lobbies", class: "lobby-list" });
  const filter = select({ id: "lobby-filter" }, [
    { value: "", label: t("web.lobbies.every_title", "every game") },
    ...titles.map((info) => ({ value: info.name, label: titleName(info.name) })),
  ]);
  const refresh = async () => {
    const listed = (await lobbies.listLobbies({ title: filter.value, pageSize: LISTED })).lobbies;
    if (screen.signal.aborted) return;
    open.replaceChildren(...listed.length
      ? listed.map(lobbyCard)
      : [el("li", { class: "empty" }, t("web.lobbies.none", "No open lobby right now: create one, or find a match."))]);
  };
  section.replaceChildren(
    el("div", { class: "columns" },
      card(t("web.lobbies.open_heading", "Open lobbies"),
        el("div", { class: "row" }, field(t("web.lobbies.filter", "Show"), filter),
          button(t("web.lobbies.refresh", "Refresh"), () => guarded(refresh), { id: "refresh-lobbies" })),
        open),
      el("div", { class: "side" },
        card(t("web.lobbies.new_heading", "New lobby"),
          choice.element,
          el("label", { class: "check" }, privateLobby, t("web.lobbies.private", "Private: joined by invite code only")),
          takebacks.element,
          button(t("web.lobbies.create", "Create lobby"), () => guarded(async () => {
            const lobby = (await lobbies.createLobby({
              title: choice.title(),
              seatCount: choice.seats(),
              options: choice.options(),
              visibility: privateLobby.checked ? Visibility.PRIVATE : Visibility.PUBLIC,
              undo: takebacks.undo(),
              unrated: takebacks.unrated(),
              botTakebacks: takebacks.botTakebacks(),
            })).lobby;
            if (lobby) go(`lobby/${lobby.lobbyId}`);
          }), { id: "create-lobby", class: "primary" })),
        card(t("web.lobbies.invite_heading", "Join by invite"),
          el("div", { class: "row" }, field(t("web.lobbies.lobby_id", "Lobby id"), lobbyId), field(t("web.lobbies.invite", "Invite code"), invite)),
          button(t("web.lobbies.join_invite", "Join"), () => guarded(async () => {
            const lobby = (await lobbies.joinLobby({ lobbyId: lobbyId.value.trim(), inviteCode: invite.value.trim() })).lobby;
            if (lobby) go(`lobby/${lobby.lobbyId}`);
          }), { id: "join-invite" })),
        card(t("web.lobbies.watch_heading", "Watch or replay a game"),
          field(t("web.lobbies.game_id", "Game id"), watchId),
          el("div", { class: "row" },
            button(t("web.lobbies.watch", "Watch"), () => go(`game/${watchId.value.trim()}`), { id: "watch-game" }),
            button(t("web.lobbies.replay", "Replay"), () => go(`replay/${watchId.value.trim()}`), { id: "replay-game" }))))),
  );
  filter.addEventListener("change", () => void guarded(refresh));
  await refresh();
  every(REFRESH_MS, screen.signal, refresh);
}
