// Tournaments (TournamentService): the list (ListTournaments, by title and status, page by page) and a
// new tournament (CreateTournament: the title, its options and seats per table within its player
// counts, the format, a Swiss's rounds, the round's time limit, the games' clock, when registration
// closes, rated, capacity). One tournament is tournament.ts.
import { timestampDate, timestampFromDate } from "@bufbuild/protobuf/wkt";
import { tournaments } from "../api";
import { ago, button, card, el, field, select, show } from "../dom";
import { t } from "../i18n";
import { TournamentFormat, TournamentStatus, type Tournament } from "../gen/boardgame/gateway/v1/tournaments_pb";
import { clockChoice } from "./clock";
import { gameChoice, go, guarded, link, loadTitlesWithCatalogs, titleName, type Screen } from "./common";

const PAGE = 20;
const SWISS_ROUNDS = { least: 1, most: 20, chosen: 4 };
const CAPACITY = { most: 256, chosen: 16 };
const MOST_ROUND_MINUTES = 30 * 24 * 60;

/** Each format's name, in the order the form offers them. */
export function formats(): { value: TournamentFormat; label: string }[] {
  return [
    { value: TournamentFormat.SWISS, label: t("web.tournaments.format.swiss", "Swiss") },
    { value: TournamentFormat.ROUND_ROBIN, label: t("web.tournaments.format.round_robin", "round robin") },
    { value: TournamentFormat.SINGLE_ELIMINATION, label: t("web.tournaments.format.elimination", "single elimination") },
  ];
}

export function formatName(format: TournamentFormat): string {
  return formats().find((f) => f.value === format)?.label ?? "";
}

/** Each status's name, as the list's filter offers them. */
export function statuses(): { value: TournamentStatus; label: string }[] {
  return [
    { value: TournamentStatus.REGISTRATION, label: t("web.tournaments.status.registration", "taking entrants") },
    { value: TournamentStatus.RUNNING, label: t("web.tournaments.status.running", "running") },
    { value: TournamentStatus.FINISHED, label: t("web.tournaments.status.finished", "finished") },
    { value: TournamentStatus.CANCELLED, label: t("web.tournaments.status.cancelled", "cancelled") },
  ];
}

export function statusName(status: TournamentStatus): string {
  return statuses().find((s) => s.value === status)?.label ?? "";
}

function row(tournament: Tournament): HTMLElement {
  const created = tournament.createdAt ? timestampDate(tournament.createdAt) : undefined;
  return el("tr", { class: "tournament", "data-tournament-id": tournament.tournamentId, "data-status": TournamentStatus[tournament.status].toLowerCase() },
    el("td", {}, link(`tournament/${tournament.tournamentId}`, tournament.name || tournament.tournamentId, { class: "open-tournament" })),
    el("td", {}, titleName(tournament.title)),
    el("td", {}, formatName(tournament.format)),
    el("td", { class: "number" }, t("web.tournaments.entrants_of", "{entrants} of {capacity}", { entrants: tournament.entrantCount, capacity: tournament.capacity })),
    el("td", {}, statusName(tournament.status)),
    el("td", { class: "muted" }, ago(created)));
}

/** The form of a new tournament; on success the page goes to it. */
function newTournament(): HTMLElement {
  const name = el("input", { id: "tournament-name", maxlength: "128", placeholder: t("web.tournaments.name_placeholder", "the game and the format") });
  const choice = gameChoice("tournament-", 2, t("web.tournaments.seats", "Seats per table"));
  const format = select({ id: "tournament-format" }, formats().map(({ value, label }) => ({ value: String(value), label })));
  const rounds = el("input", { id: "tournament-rounds", type: "number", min: String(SWISS_ROUNDS.least), max: String(SWISS_ROUNDS.most), value: String(SWISS_ROUNDS.chosen) });
  const roundsField = field(t("web.tournaments.rounds", "Swiss rounds"), rounds);
  const capacity = el("input", { id: "tournament-capacity", type: "number", min: "2", max: String(CAPACITY.most), value: String(CAPACITY.chosen) });
  const minutes = el("input", { id: "tournament-round-minutes", type: "number", min: "0", max: String(MOST_ROUND_MINUTES), value: "0" });
  const closes = el("input", { id: "tournament-closes", type: "datetime-local" });
  const rated = el("input", { id: "tournament-rated", type: "checkbox" });
  const clock = clockChoice("tournament-");
  format.addEventListener("change", () => { roundsField.hidden = Number(format.value) !== TournamentFormat.SWISS; });
  return card(t("web.tournaments.new_heading", "New tournament"),
    field(t("web.tournaments.name", "Name"), name),
    choice.element,
    el("div", { class: "row" }, field(t("web.tournaments.format", "Format"), format), roundsField),
    el("div", { class: "row" },
      field(t("web.tournaments.capacity", "Most entrants"), capacity),
      field(t("web.tournaments.round_minutes", "Minutes a round (0: no limit)"), minutes)),
    clock.element,
    field(t("web.tournaments.closes", "Registration closes (empty: you start it)"), closes),
    el("label", { class: "check" }, rated, t("web.tournaments.rated", "Rated: its games change ratings")),
    button(t("web.tournaments.create", "Create tournament"), () => guarded(async () => {
      const swiss = Number(format.value) === TournamentFormat.SWISS;
      const closing = closes.value ? new Date(closes.value) : undefined;
      const created = (await tournaments.createTournament({
        name: name.value.trim(),
        title: choice.title(),
        options: choice.options(),
        seatsPerTable: choice.seats(),
        format: Number(format.value) as TournamentFormat,
        swissRounds: swiss ? Number(rounds.value) : 0,
        roundSeconds: Math.round(Number(minutes.value) * 60),
        clock: clock.clock(),
        registrationClosesAt: closing ? timestampFromDate(closing) : undefined,
        rated: rated.checked,
        capacity: Number(capacity.value),
      })).tournament;
      if (created) go(`tournament/${created.tournamentId}`);
    }), { id: "create-tournament", class: "primary" }));
}

export async function tournamentsScreen(screen: Screen): Promise<void> {
  const titles = await loadTitlesWithCatalogs();
  if (screen.signal.aborted) return; // left (or signed out) meanwhile
  const section = show("tournaments");
  const title = select({ id: "tournaments-title" }, [
    { value: "", label: t("web.tournaments.every_title", "every game") },
    ...titles.map((info) => ({ value: info.name, label: titleName(info.name) })),
  ]);
  const status = select({ id: "tournaments-status" }, [
    { value: "0", label: t("web.tournaments.any_status", "any") },
    ...statuses().map(({ value, label }) => ({ value: String(value), label })),
  ]);
  const table = el("table", { id: "tournaments", class: "list" });
  const more = button(t("web.tournaments.more", "More"), () => guarded(() => page()), { id: "tournaments-more" });
  let token = "";
  let asked = 0; // the listing shown: a newer one (filters changed) drops an older one's pages
  const page = async (first = false) => {
    const mine = first ? ++asked : asked;
    if (first) token = "";
    const reply = await tournaments.listTournaments({ title: title.value, status: Number(status.value) as TournamentStatus, pageSize: PAGE, pageToken: token });
    if (screen.signal.aborted || mine !== asked) return;
    if (first) table.replaceChildren(head());
    table.append(...reply.tournaments.map(row));
    if (first && !reply.tournaments.length)
      table.append(el("tr", { class: "empty" }, el("td", { colspan: "6" }, t("web.tournaments.none", "No tournament here yet: create one."))));
    token = reply.nextPageToken;
    more.hidden = !token;
    table.dataset.loaded = `${title.value}/${status.value}`;
  };
  const head = () => el("tr", {},
    el("th", {}, t("web.tournaments.name", "Name")), el("th", {}, t("web.tournaments.game", "Game")),
    el("th", {}, t("web.tournaments.format", "Format")), el("th", { class: "number" }, t("web.tournaments.entrants", "Entrants")),
    el("th", {}, t("web.tournaments.status", "Status")), el("th", {}, t("web.tournaments.created", "Created")));
  for (const filter of [title, status]) filter.addEventListener("change", () => void guarded(() => page(true)));
  section.replaceChildren(el("div", { class: "columns" },
    card(t("web.tournaments.heading", "Tournaments"),
      el("div", { class: "row" },
        field(t("web.tournaments.game", "Game"), title),
        field(t("web.tournaments.status", "Status"), status),
        button(t("web.tournaments.refresh", "Refresh"), () => guarded(() => page(true)), { id: "tournaments-refresh" })),
      el("div", { class: "table-wrap" }, table),
      more),
    el("div", { class: "side" }, newTournament())));
  await page(true);
}
