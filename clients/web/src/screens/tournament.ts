// One tournament (GetTournament): its settings, entrants (seed, rating, withdrawn), rounds with their
// tables (each seat's result, the game to open), byes and deadlines, and the standings with every
// tie-break; Join and Leave, and for its organiser Add bot, Start and Cancel. No stream tells of a
// tournament's changes, so the page asks again every few seconds while it is open and not over, and at
// once when the inbox brings a notice of this tournament.
import { equals } from "@bufbuild/protobuf";
import { timestampDate, type Timestamp } from "@bufbuild/protobuf/wkt";
import { tournaments } from "../api";
import { button, card, el, say, show, until } from "../dom";
import { refusalOf } from "../errors";
import { list, t, tag } from "../i18n";
import { BotStrength } from "../gen/boardgame/gateway/v1/gateway_pb";
import {
  TournamentSchema,
  TournamentStatus,
  type Tournament,
  type TournamentRound,
  type TournamentStanding,
  type TournamentTable,
} from "../gen/boardgame/gateway/v1/tournaments_pb";
import { clockText } from "./clock";
import { account, failure, link, loadTitles, pause, strengthLabel, strengthSelect, titleName, type Screen } from "./common";
import { onInbox } from "./inbox";
import { formatName, statusName } from "./tournaments";

const POLL_MS = 3000;
let botStrength: number = BotStrength.RANDOM; // AddTournamentBot's own default, until the organiser picks another

// What a refusal of a tournament's call says, by its reason (docs/errors.md); others as the API words them.
const REFUSALS: Record<string, () => string> = {
  REGISTRATION_CLOSED: () => t("web.tournament.refused.closed", "Registration is closed."),
  TOURNAMENT_FULL: () => t("web.tournament.refused.full", "The tournament is full."),
  ALREADY_REGISTERED: () => t("web.tournament.refused.registered", "You are registered already."),
  NOT_REGISTERED: () => t("web.tournament.refused.not_registered", "Not an entrant (or withdrawn already)."),
  TOURNAMENT_OVER: () => t("web.tournament.refused.over", "The tournament is over."),
  ALREADY_STARTED: () => t("web.tournament.refused.started", "The tournament has started already."),
  TOURNAMENT_CANCELLED: () => t("web.tournament.refused.cancelled", "The tournament was cancelled."),
  TOO_FEW_ENTRANTS: () => t("web.tournament.refused.too_few", "Too few entrants to fill a table: wait for more, or add bots."),
  NO_BRACKET: () => t("web.tournament.refused.no_bracket", "No bracket fits this field: add or withdraw an entrant."),
};

function refused(error: unknown): void {
  const reason = refusalOf(error)?.reason ?? "";
  say(REFUSALS[reason]?.() ?? failure(error));
}

function when(stamp: Timestamp | undefined): string {
  return stamp ? timestampDate(stamp).toLocaleString(tag()) : "";
}

/** Tournament points (halves at a level rank) in the reader's digits. */
function points(value: number): string {
  return value.toLocaleString(tag(), { maximumFractionDigits: 2 });
}

function over(tournament: Tournament): boolean {
  return tournament.status === TournamentStatus.FINISHED || tournament.status === TournamentStatus.CANCELLED;
}

/** A tournament's page: drawn anew when it changes, its controls keeping their focus. */
export async function tournamentScreen(screen: Screen, tournamentId: string): Promise<void> {
  await loadTitles();
  if (screen.signal.aborted) return; // left (or signed out) meanwhile
  let current = (await tournaments.getTournament({ tournamentId })).tournament;
  if (!current || screen.signal.aborted) return;
  const section = show("tournament");
  section.dataset.tournamentId = tournamentId;

  const me = () => account.player?.playerId ?? "";
  const nameOf = (tournament: Tournament, playerId: string): string => {
    const name = tournament.entrants.find((e) => e.player?.playerId === playerId)?.player?.displayName
      ?? tournament.standings.find((s) => s.playerId === playerId)?.displayName ?? playerId;
    return playerId === me() ? t("web.tournament.you", "{name} (you)", { name }) : name;
  };

  const take = (fresh: Tournament | undefined) => {
    if (!fresh || screen.signal.aborted || (current && equals(TournamentSchema, current, fresh))) return;
    current = fresh;
    draw();
  };
  const act = (work: () => Promise<Tournament | undefined>) => async () => {
    try {
      take(await work());
    } catch (error) {
      refused(error);
    }
  };
  const refresh = async () => take((await tournaments.getTournament({ tournamentId })).tournament);

  const facts = (tournament: Tournament): HTMLElement => {
    const fact = (term: string, value: string, id: string) => [el("dt", {}, term), el("dd", { id }, value)];
    const organiser = tournament.organiserPlayerId === me() ? t("web.tournament.organiser_you", "you") : nameOf(tournament, tournament.organiserPlayerId);
    return el("dl", { class: "facts" },
      ...fact(t("web.tournament.game", "Game"), titleName(tournament.title), "tournament-game"),
      ...fact(t("web.tournament.format", "Format"), tournament.roundCount
        ? t("web.tournament.format_rounds", "{format}, {rounds, plural, one {# round} other {# rounds}}", { format: formatName(tournament.format), rounds: tournament.roundCount })
        : formatName(tournament.format), "tournament-format"),
      ...fact(t("web.tournament.seats", "Seats per table"), String(tournament.seatsPerTable), "tournament-seats"),
      ...fact(t("web.tournament.status", "Status"), tournament.cancelReason
        ? t("web.tournament.cancelled_because", "{status}: {reason}", { status: statusName(tournament.status), reason: tournament.cancelReason })
        : statusName(tournament.status), "tournament-status"),
      ...fact(t("web.tournament.entrants", "Entrants"), t("web.tournaments.entrants_of", "{entrants} of {capacity}", { entrants: tournament.entrantCount, capacity: tournament.capacity }), "tournament-count"),
      ...fact(t("web.tournament.ratings", "Ratings"), tournament.rated ? t("web.tournament.rated", "rated: its games change ratings") : t("web.tournament.unrated", "unrated"), "tournament-rated"),
      ...fact(t("web.tournament.round_limit", "Time a round"), tournament.roundSeconds
        ? t("web.tournament.round_minutes", "{minutes} min; players still seated then forfeit", { minutes: +(tournament.roundSeconds / 60).toFixed(1) })
        : t("web.tournament.no_limit", "no limit"), "tournament-round-limit"),
      ...fact(t("web.tournament.clock", "Clock"), clockText(tournament.clock), "tournament-clock"),
      ...fact(t("web.tournament.registration", "Registration closes"), tournament.registrationClosesAt
        ? `${when(tournament.registrationClosesAt)} (${until(timestampDate(tournament.registrationClosesAt))})`
        : t("web.tournament.organiser_starts", "when the organiser starts it"), "tournament-closes"),
      ...fact(t("web.tournament.organiser", "Organiser"), organiser, "tournament-organiser"),
      ...fact(t("web.tournament.created", "Created"), when(tournament.createdAt), "tournament-created"),
      ...(tournament.startedAt ? fact(t("web.tournament.started", "Started"), when(tournament.startedAt), "tournament-started") : []),
      ...(tournament.finishedAt ? fact(t("web.tournament.finished", "Finished"), when(tournament.finishedAt), "tournament-finished") : []));
  };

  const controls = (tournament: Tournament): HTMLElement => {
    const registering = tournament.status === TournamentStatus.REGISTRATION;
    const entrant = tournament.entrants.find((e) => e.player?.playerId === me());
    const organiser = tournament.organiserPlayerId === me();
    const strength = strengthSelect("tournament-bot-strength", botStrength, tournament.title);
    strength.addEventListener("change", () => { botStrength = Number(strength.value); });
    return el("div", { class: "row", id: "tournament-controls" },
      registering && !entrant
        ? button(t("web.tournament.join", "Join"), act(async () => (await tournaments.joinTournament({ tournamentId })).tournament), { id: "tournament-join", class: "primary" })
        : null,
      entrant && !entrant.withdrawn && !over(tournament)
        ? button(registering ? t("web.tournament.leave", "Leave") : t("web.tournament.withdraw", "Withdraw"),
          act(async () => (await tournaments.leaveTournament({ tournamentId })).tournament), { id: "tournament-leave" })
        : null,
      organiser && registering ? strength : null,
      organiser && registering
        ? button(t("web.tournament.add_bot", "Add bot"), act(async () => (await tournaments.addTournamentBot({ tournamentId, strength: botStrength })).tournament), { id: "tournament-add-bot" })
        : null,
      organiser && registering
        ? button(t("web.tournament.start", "Start"), act(async () => (await tournaments.startTournament({ tournamentId })).tournament), { id: "tournament-start", class: "primary" })
        : null,
      organiser && registering
        ? button(t("web.tournament.cancel", "Cancel the tournament"), act(async () => {
          if (!window.confirm(t("web.tournament.cancel_confirm", "Call this tournament off? Its entrants are told, and it cannot be started again."))) return undefined;
          return (await tournaments.cancelTournament({ tournamentId })).tournament;
        }), { id: "tournament-cancel" })
        : null);
  };

  const entrants = (tournament: Tournament): HTMLElement => {
    const organiser = tournament.organiserPlayerId === me() && !over(tournament);
    const rows = [...tournament.entrants].sort((a, b) => (a.seed || Infinity) - (b.seed || Infinity));
    return el("table", { id: "tournament-entrants", class: "list" },
      el("tr", {},
        el("th", { class: "number" }, t("web.tournament.seed", "Seed")), el("th", {}, t("web.tournament.player", "Player")),
        el("th", { class: "number" }, t("web.tournament.rating", "Rating")), el("th", {}, t("web.tournament.registered", "Registered")),
        el("th", {}, "")),
      ...rows.map((entrant) => {
        const id = entrant.player?.playerId ?? "";
        return el("tr", { class: `entrant${id === me() ? " me" : ""}${entrant.withdrawn ? " withdrawn" : ""}`, "data-player-id": id },
          el("td", { class: "number" }, entrant.seed ? String(entrant.seed) : ""),
          el("td", {}, nameOf(tournament, id),
            entrant.player?.bot ? el("span", { class: "tag" }, t("web.tournament.bot", "bot, {strength}", { strength: strengthLabel(entrant.botStrength) })) : null,
            entrant.withdrawn ? el("span", { class: "tag mark" }, t("web.tournament.withdrawn", "withdrawn")) : null),
          el("td", { class: "number" }, entrant.rating.toFixed(1)),
          el("td", { class: "muted" }, when(entrant.registeredAt)),
          el("td", { class: "buttons" }, organiser && entrant.player?.bot && !entrant.withdrawn
            ? button(t("web.tournament.withdraw", "Withdraw"), act(async () => (await tournaments.leaveTournament({ tournamentId, playerId: id })).tournament), { class: "withdraw-bot" })
            : null));
      }));
  };

  const tableRow = (tournament: Tournament, table: TournamentTable): HTMLElement => {
    const mine = table.seats.some((seat) => seat.playerId === me());
    return el("tr", { class: `table${table.finished ? " finished" : ""}`, "data-game-id": table.gameId, "data-finished": String(table.finished) },
      el("td", { class: "number" }, String(table.number)),
      el("td", {}, el("ul", { class: "table-seats" }, ...table.seats.map((seat) => el("li", { "data-player-id": seat.playerId },
        t("web.tournament.seat", "seat {seat}: {name}", { seat: seat.seat, name: nameOf(tournament, seat.playerId) }),
        table.finished
          ? el("span", { class: "muted small result" }, " ", t("web.tournament.seat_result", "rank {rank}, {points, plural, one {# point} other {# points}}, score {score}, tie-break {tiebreak}", {
            rank: seat.rank, points: seat.points, score: seat.score, tiebreak: seat.tiebreak,
          }))
          : null,
        seat.forfeited ? el("span", { class: "tag mark" }, t("web.tournament.forfeited", "resigned or forfeited")) : null)))),
      el("td", { class: "buttons" }, !table.gameStarted
        ? el("span", { class: "muted" }, t("web.tournament.setting_up", "being set up"))
        : link(`game/${table.gameId}`, table.finished
          ? t("web.tournament.result", "Result")
          : mine ? t("web.tournament.play", "Play") : t("web.tournament.watch", "Watch"), { class: "table-game" })));
  };

  const round = (tournament: Tournament, r: TournamentRound): HTMLElement => {
    const deadline = r.deadline ? timestampDate(r.deadline) : undefined;
    return el("section", { class: "round", "data-round": String(r.number), "data-finished": String(r.finished) },
      el("h3", {}, t("web.tournament.round", "Round {round}", { round: r.number })),
      el("p", { class: "muted small" },
        r.finished ? t("web.tournament.round_finished", "Every result is in.") : t("web.tournament.round_playing", "Being played."), " ",
        t("web.tournament.paired", "Paired {when}.", { when: when(r.startedAt) }), " ",
        deadline && !r.finished ? t("web.tournament.deadline", "Time runs out {when}: players still seated then forfeit.", { when: until(deadline) }) : ""),
      el("table", { class: "list tables" },
        el("tr", {},
          el("th", { class: "number" }, t("web.tournament.table", "Table")), el("th", {}, t("web.tournament.seats_results", "Seats and results")),
          el("th", {}, t("web.tournament.game", "Game"))),
        ...r.tables.map((table) => tableRow(tournament, table))),
      r.byePlayerIds.length
        ? el("p", { class: "byes", "data-byes": r.byePlayerIds.join(" ") }, t("web.tournament.byes", "Sitting out (a bye, {points, plural, one {# point} other {# points}} each): {names}", {
          points: r.byePoints, names: list(r.byePlayerIds.map((id) => nameOf(tournament, id))),
        }))
        : null);
  };

  const standings = (tournament: Tournament): HTMLElement => {
    const numbers = (s: TournamentStanding) => [points(s.points), points(s.buchholz), points(s.sonnebornBerger), String(s.scoreTotal), String(s.tiebreakTotal), String(s.games), String(s.byes), String(s.seed)];
    return el("table", { id: "tournament-standings", class: "list" },
      el("tr", {},
        el("th", { class: "number" }, t("web.tournament.place", "Place")), el("th", {}, t("web.tournament.player", "Player")),
        ...[
          t("web.tournament.points", "Points"), t("web.tournament.buchholz", "Buchholz"), t("web.tournament.sonneborn_berger", "Sonneborn-Berger"),
          t("web.tournament.score_total", "Scores"), t("web.tournament.tiebreak_total", "Tie-breaks"), t("web.tournament.games", "Games"),
          t("web.tournament.byes_column", "Byes"), t("web.tournament.seed", "Seed"),
        ].map((heading) => el("th", { class: "number" }, heading)),
        el("th", {}, "")),
      ...tournament.standings.map((s) => el("tr", {
        class: `standing${s.playerId === me() ? " me" : ""}`, "data-player-id": s.playerId,
        "data-withdrawn": String(s.withdrawn), "data-eliminated": String(s.eliminatedInRound),
      },
      el("td", { class: "number" }, String(s.place)),
      el("td", {}, nameOf(tournament, s.playerId)),
      ...numbers(s).map((value) => el("td", { class: "number" }, value)),
      el("td", {},
        s.withdrawn ? el("span", { class: "tag mark" }, t("web.tournament.withdrawn", "withdrawn")) : null,
        s.eliminatedInRound ? el("span", { class: "tag mark" }, t("web.tournament.eliminated", "out in round {round}", { round: s.eliminatedInRound })) : null))));
  };

  const draw = () => {
    const tournament = current as Tournament;
    const focused = section.contains(document.activeElement) ? document.activeElement?.id : "";
    section.dataset.status = TournamentStatus[tournament.status].toLowerCase();
    section.replaceChildren(
      card(tournament.name || titleName(tournament.title),
        el("p", {}, link("tournaments", t("web.tournament.all", "All tournaments"))),
        facts(tournament),
        controls(tournament)),
      card(t("web.tournament.standings", "Standings"),
        el("p", { class: "muted small" }, t("web.tournament.tie_breaks", "Equal points are ordered by Buchholz (the points of the opponents met), Sonneborn-Berger (their points by the result against them), the sum of the game scores, the sum of the game's own tie-breaks, then seed.")),
        el("div", { class: "table-wrap" }, standings(tournament))),
      el("div", { class: "columns" },
        card(t("web.tournament.rounds", "Rounds"), el("div", { id: "tournament-rounds" }, ...tournament.rounds.length
          ? tournament.rounds.map((r) => round(tournament, r))
          : [el("p", { class: "muted" }, t("web.tournament.no_rounds", "No round yet: the first is paired when the tournament starts."))])),
        el("div", { class: "side" }, card(t("web.tournament.entrants", "Entrants"), el("div", { class: "table-wrap" }, entrants(tournament))))));
    if (focused) document.getElementById(focused)?.focus();
  };

  draw();
  onInbox((event) => { if (event.tournamentId === tournamentId) void refresh().catch(refused); }, screen.signal);
  while (!screen.signal.aborted && !over(current)) {
    await pause(POLL_MS, screen.signal);
    if (screen.signal.aborted) return;
    try {
      await refresh();
    } catch (error) {
      if (!screen.signal.aborted) say(failure(error));
    }
  }
}
