// Tiny DOM helpers.
import { t, tag } from "./i18n";

/** A child of `el`: nothing is added for null, undefined or false. */
export type Child = Node | string | null | undefined | false;

export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Record<string, string> = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) element.setAttribute(name, value);
  for (const child of children) if (child !== null && child !== undefined && child !== false) element.append(child);
  return element;
}

export function button(label: string, onClick: () => unknown, attrs: Record<string, string> = {}): HTMLButtonElement {
  const b = el("button", { type: "button", ...attrs }, label);
  b.addEventListener("click", () => void onClick());
  return b;
}

/** A labelled form control: the label's text above the control. */
export function field(label: string, control: HTMLElement, attrs: Record<string, string> = {}): HTMLLabelElement {
  return el("label", { class: "field", ...attrs }, el("span", {}, label), control);
}

/** A select of `choices`, `selected` chosen (the first if none matches). */
export function select(
  attrs: Record<string, string>,
  choices: { value: string; label: string }[],
  selected = "",
): HTMLSelectElement {
  return el("select", attrs, ...choices.map(({ value, label }) => {
    const option = el("option", { value }, label);
    option.selected = value === selected;
    return option;
  }));
}

/** A titled panel of a screen. */
export function card(heading: string, ...children: Child[]): HTMLElement {
  return el("section", { class: "card" }, el("h2", {}, heading), ...children);
}

export function show(id: string): HTMLElement {
  for (const screen of document.querySelectorAll<HTMLElement>("main > section")) {
    screen.hidden = screen.id !== id;
    if (screen.hidden) screen.replaceChildren(); // a screen left holds nothing stale
  }
  return document.getElementById(id) as HTMLElement;
}

const KEPT_MESSAGES = 20;

/** Show a message, and keep it in the list of recent ones. */
export function say(message: string): void {
  (document.getElementById("message") as HTMLElement).textContent = message;
  const recent = document.getElementById("recent-messages") as HTMLElement;
  recent.prepend(el("li", {}, message));
  while (recent.children.length > KEPT_MESSAGES) recent.lastElementChild?.remove();
  const box = document.getElementById("messages");
  if (box) box.hidden = false;
}

/** How long ago `when` was, in words ("5 min ago"); the date itself past a week. */
export function ago(when: Date | undefined, now = Date.now()): string {
  if (!when) return "";
  const seconds = Math.max(0, Math.round((now - when.getTime()) / 1000));
  if (seconds < 45) return t("web.time.just_now", "just now");
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return t("web.time.minutes_ago", "{n} min ago", { n: minutes });
  const hours = Math.round(minutes / 60);
  if (hours < 24) return t("web.time.hours_ago", "{n} h ago", { n: hours });
  const days = Math.round(hours / 24);
  if (days < 7) return t("web.time.days_ago", "{n} d ago", { n: days });
  return when.toLocaleDateString(tag());
}

/** A time to come, in words ("in 4 min", "in 2 h"). */
export function until(when: Date | undefined, now = Date.now()): string {
  if (!when) return "";
  const seconds = Math.round((when.getTime() - now) / 1000);
  if (seconds <= 0) return t("web.time.now", "now");
  if (seconds < 90) return t("web.time.in_seconds", "in {n} s", { n: seconds });
  const minutes = Math.round(seconds / 60);
  if (minutes < 90) return t("web.time.in_minutes", "in {n} min", { n: minutes });
  const hours = Math.round(minutes / 60);
  if (hours < 48) return t("web.time.in_hours", "in {n} h", { n: hours });
  return t("web.time.in_days", "in {n} d", { n: Math.round(hours / 24) });
}
