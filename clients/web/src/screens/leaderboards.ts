// Leaderboards (GetLeaderboard): a title's players by rating, page by page; the signed-in player's row
// marked.
import { leaderboard } from "../api";
import { button, card, el, field, select, show } from "../dom";
import { t } from "../i18n";
import type { LeaderboardEntry } from "../gen/boardgame/gateway/v1/gateway_pb";
import { account, go, guarded, loadTitles, titleName, type Screen } from "./common";

const PAGE = 25;

function row(entry: LeaderboardEntry): HTMLElement {
  const mine = entry.player?.playerId === account.player?.playerId;
  return el("tr", { class: `entry${mine ? " me" : ""}`, "data-player-id": entry.player?.playerId ?? "" },
    el("td", { class: "number" }, String(entry.rank)),
    el("td", {}, entry.player?.displayName ?? "", entry.player?.bot ? el("span", { class: "tag" }, t("web.leaderboards.bot", "bot")) : null,
      mine ? el("span", { class: "tag" }, t("web.leaderboards.you", "you")) : null),
    el("td", { class: "number" }, entry.rating.toFixed(1)),
    el("td", { class: "number" }, String(entry.games)),
    el("td", { class: "number" }, String(entry.wins)));
}

export async function leaderboardsScreen(screen: Screen, wanted: string): Promise<void> {
  const titles = await loadTitles();
  if (screen.signal.aborted) return; // left (or signed out) meanwhile
  const title = titles.some((info) => info.name === wanted) ? wanted : titles[0]?.name ?? "";
  const section = show("leaderboards");
  const choice = select({ id: "leaderboard-title" }, titles.map((info) => ({ value: info.name, label: titleName(info.name) })), title);
  choice.addEventListener("change", () => go(`leaderboards/${choice.value}`));
  const table = el("table", { id: "leaderboard", class: "list", "data-title": title });
  const more = button(t("web.leaderboards.more", "More"), () => guarded(() => page()), { id: "leaderboard-more" });
  let token = "";
  const page = async () => {
    const reply = await leaderboard.getLeaderboard({ title, pageSize: PAGE, pageToken: token });
    if (screen.signal.aborted) return;
    table.append(...reply.entries.map(row));
    token = reply.nextPageToken;
    more.hidden = !token;
    table.dataset.loaded = "true";
  };
  table.append(el("tr", {},
    el("th", { class: "number" }, t("web.leaderboards.rank", "Rank")), el("th", {}, t("web.leaderboards.player", "Player")),
    el("th", { class: "number" }, t("web.leaderboards.rating", "Rating")), el("th", { class: "number" }, t("web.leaderboards.games", "Games")),
    el("th", { class: "number" }, t("web.leaderboards.wins", "Wins"))));
  section.replaceChildren(card(t("web.leaderboards.heading", "Leaderboards"),
    el("div", { class: "row" }, field(t("web.leaderboards.title", "Game"), choice)),
    el("div", { class: "table-wrap" }, table),
    more));
  await page();
  if (table.rows.length === 1)
    table.append(el("tr", { class: "empty" }, el("td", { colspan: "5" }, t("web.leaderboards.none", "Nobody is rated on this game yet."))));
}
