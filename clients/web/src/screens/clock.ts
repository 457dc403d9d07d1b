// A game's turn clock (TurnClock): the form part that sets one (none, real-time: seconds a move, a
// total with an increment; correspondence: days a move with a reserve; what a timeout does) and a
// clock in words.
import { el, field, select } from "../dom";
import { t } from "../i18n";
import { ClockPace, TimeoutPolicy, type TurnClock } from "../gen/boardgame/gateway/v1/gateway_pb";

const DAY = 24 * 3600;

type ClockInit = {
  perMoveSeconds: number;
  totalSeconds: number;
  incrementSeconds: number;
  reserveSeconds: number;
  pace: ClockPace;
  onTimeout: TimeoutPolicy;
};

export type ClockChoice = { element: HTMLElement; clock: () => ClockInit };

function number(id: string, value: number, attrs: Record<string, string> = {}): HTMLInputElement {
  return el("input", { id, type: "number", min: "0", value: String(value), ...attrs });
}

/** The clock's form part, each control's id `prefix` + "clock", "per-move", "total", "increment",
 * "days", "reserve", "timeout". */
export function clockChoice(prefix: string): ClockChoice {
  const kind = select({ id: `${prefix}clock` }, [
    { value: "none", label: t("web.clock.none", "no clock") },
    { value: "real", label: t("web.clock.real_time", "real-time") },
    { value: "correspondence", label: t("web.clock.correspondence", "correspondence") },
  ], "none");
  const perMove = number(`${prefix}per-move`, 60);
  const total = number(`${prefix}total`, 0);
  const increment = number(`${prefix}increment`, 0);
  const days = number(`${prefix}days`, 1, { min: "1", step: "any" });
  const reserve = number(`${prefix}reserve`, 0, { step: "any" });
  const timeout = select({ id: `${prefix}timeout` }, [
    { value: String(TimeoutPolicy.BOT_PLAYS_TURN), label: t("web.clock.bot_plays", "a bot plays the turn") },
    { value: String(TimeoutPolicy.FORFEIT), label: t("web.clock.forfeit", "the seat forfeits") },
  ]);
  const real = el("div", { class: "row" },
    field(t("web.clock.per_move", "Seconds a move (0: none)"), perMove),
    field(t("web.clock.total", "Seconds a game (0: none)"), total),
    field(t("web.clock.increment", "Increment (seconds)"), increment));
  const post = el("div", { class: "row" },
    field(t("web.clock.days", "Days a move"), days),
    field(t("web.clock.reserve", "Reserve (days)"), reserve));
  const onTimeout = field(t("web.clock.timeout", "When time runs out"), timeout);
  const shown = () => {
    real.hidden = kind.value !== "real";
    post.hidden = kind.value !== "correspondence";
    onTimeout.hidden = kind.value === "none";
  };
  kind.addEventListener("change", shown);
  shown();
  return {
    element: el("div", { class: "clock-choice" }, el("div", { class: "row" }, field(t("web.clock.heading", "Clock"), kind), onTimeout), real, post),
    clock: () => {
      const policy = Number(timeout.value) as TimeoutPolicy;
      if (kind.value === "real")
        return { perMoveSeconds: Number(perMove.value), totalSeconds: Number(total.value), incrementSeconds: Number(increment.value), reserveSeconds: 0, pace: ClockPace.REAL_TIME, onTimeout: policy };
      if (kind.value === "correspondence")
        return { perMoveSeconds: Math.round(Number(days.value) * DAY), totalSeconds: 0, incrementSeconds: 0, reserveSeconds: Math.round(Number(reserve.value) * DAY), pace: ClockPace.CORRESPONDENCE, onTimeout: policy };
      return { perMoveSeconds: 0, totalSeconds: 0, incrementSeconds: 0, reserveSeconds: 0, pace: ClockPace.UNSPECIFIED, onTimeout: TimeoutPolicy.UNSPECIFIED };
    },
  };
}

/** A clock in words: "60 s a move, 600 s a game + 5 s a move; the seat forfeits". */
export function clockText(clock: TurnClock | undefined): string {
  if (!clock || (!clock.perMoveSeconds && !clock.totalSeconds)) return t("web.clock.none", "no clock");
  const parts: string[] = [];
  if (clock.pace === ClockPace.CORRESPONDENCE) {
    parts.push(t("web.clock.days_text", "{days} days a move", { days: +(clock.perMoveSeconds / DAY).toFixed(2) }));
    if (clock.reserveSeconds) parts.push(t("web.clock.reserve_text", "{days} days' reserve", { days: +(clock.reserveSeconds / DAY).toFixed(2) }));
  } else {
    if (clock.perMoveSeconds) parts.push(t("web.clock.per_move_text", "{seconds} s a move", { seconds: clock.perMoveSeconds }));
    if (clock.reserveSeconds) parts.push(t("web.clock.reserve_seconds_text", "{seconds} s reserve", { seconds: clock.reserveSeconds }));
    if (clock.totalSeconds) parts.push(t("web.clock.total_text", "{seconds} s a game + {increment} s a move", { seconds: clock.totalSeconds, increment: clock.incrementSeconds }));
  }
  const then = clock.onTimeout === TimeoutPolicy.FORFEIT ? t("web.clock.forfeit", "the seat forfeits") : t("web.clock.bot_plays", "a bot plays the turn");
  return t("web.clock.text", "{parts}; at a timeout {then}", { parts: parts.join(t("web.list.separator", ", ")), then });
}
