// Every text the page shows goes through here, in the reader's locale. The page's own texts are
// `t(id, english, args)`: a message id and its English ICU MessageFormat pattern ("Seat {seat}: {n,
// plural, one {# doubloon} other {# doubloons}}"), looked up in the page's catalog of that locale
// (clients/web/locale/<locale>.po). A game's own terms are `term(title, kind, key, english)`: the
// message `<title>.<kind>.<key>` of the title's catalog (CatalogService.GetCatalog). The labels, event
// texts and score lines the API sends are `render(message, english, title)`: their Text formatted with
// the title's catalog. Whatever is missing shows the English it was given (and is noted once on the
// console: "missing message <locale> <id>"). Patterns are formatted by FormatJS's intl-messageformat,
// plurals by the browser's CLDR rules.
import { IntlMessageFormat } from "intl-messageformat";
import { fromJson, type JsonValue } from "@bufbuild/protobuf";
import { TextSchema, type Text } from "./gen/boardgame/rules/v1/rules_pb";

export type Args = Record<string, string | number>;
/** A catalog: message id -> ICU MessageFormat pattern. */
export type Messages = Record<string, string>;

export const ENGLISH = "en";

let current = ENGLISH;
let page: Messages = {};
const titles = new Map<string, Messages | null>(); // by `${locale}/${title}`; null: the title has none
const formats = new Map<string, IntlMessageFormat | null>(); // by locale and pattern; null: malformed
const missing = new Set<string>();

/** The page's locale, a gettext name ("en", "zh_Hant"). */
export function locale(): string {
  return current;
}

/** A gettext locale name as a BCP 47 tag: "zh_Hant" -> "zh-Hant". */
export function tag(name: string = current): string {
  return name.replace(/_/g, "-");
}

/** Make `name` the page's locale, its own texts from `messages`; `<html lang>` follows. */
export function useLocale(name: string, messages: Messages): void {
  current = name;
  page = messages;
  document.documentElement.lang = tag(name);
}

/** Keep a title's catalog of a locale (null: the title has none, its texts stay English). */
export function useTitleCatalog(name: string, title: string, messages: Messages | null): void {
  titles.set(`${name}/${title}`, messages);
}

function note(id: string): void {
  const key = `${current} ${id}`;
  if (missing.has(key)) return;
  missing.add(key);
  console.warn(`missing message ${key}: English shown`);
}

/** `pattern` formatted in `locale` with `args`; null when it does not parse or lacks an argument. */
function formatted(pattern: string, args: Args, name = current): string | null {
  const key = `${name}\u0000${pattern}`;
  let format = formats.get(key);
  if (format === undefined) {
    try {
      format = new IntlMessageFormat(pattern, tag(name), undefined, { ignoreTag: true });
    } catch {
      format = null;
    }
    formats.set(key, format);
  }
  if (!format) return null;
  try {
    return String(format.format(args));
  } catch {
    return null;
  }
}

/** The page's message `id` in the reader's language, its English pattern `english` when the catalog
 * lacks it. */
export function t(id: string, english: string, args: Args = {}): string {
  const pattern = current === ENGLISH ? english : page[id];
  if (pattern === undefined) note(id);
  else {
    const text = formatted(pattern, args);
    if (text !== null) return text;
  }
  return formatted(english, args, ENGLISH) ?? english;
}

/** A game's own term (a building, a good, a tile): the message `<title>.<kind>.<key>` of the title's
 * catalog (or the page's), `english` when neither has it. */
export function term(title: string, kind: string, key: string, english: string): string {
  if (current === ENGLISH) return english;
  const id = `${title}.${kind}.${key}`;
  const pattern = titles.get(`${current}/${title}`)?.[id] ?? page[id];
  const text = pattern === undefined ? null : formatted(pattern, {});
  if (text === null) note(id);
  return text ?? english;
}

/** Whether the title's catalog of the reader's locale has been asked for and answered (English needs
 * none). */
export function hasTitleCatalog(title: string): boolean {
  return current === ENGLISH || titles.has(`${current}/${title}`);
}

/** A message of the title's catalog in the reader's language, English included (a lobby option's
 * label or choice: `<title>.option.<name>`), `fallback` until that catalog is loaded or without it. */
export function titleMessage(title: string, id: string, fallback: string): string {
  const pattern = titles.get(`${current}/${title}`)?.[id];
  const text = pattern === undefined ? null : formatted(pattern, {});
  return text ?? fallback;
}

class Missing extends Error {}

/** A template of `catalog` with its arguments, rendered (terms and nested Texts first). */
function rendered(template: string, args: Text["arguments"], catalog: Messages): string {
  const pattern = catalog[template];
  if (pattern === undefined) throw new Missing(template);
  const values: Args = {};
  for (const arg of args) {
    const value = arg.value;
    if (value.case === "number") values[arg.name] = Number(value.value);
    else if (value.case === "literal") values[arg.name] = value.value;
    else if (value.case === "term") values[arg.name] = rendered(value.value, [], catalog);
    else if (value.case === "text") values[arg.name] = rendered(value.value.template, value.value.arguments, catalog);
    else values[arg.name] = "";
  }
  const text = formatted(pattern, values);
  if (text === null) throw new Missing(template);
  return text;
}

/** A Text of a title's data, in its JSON form (a card's or a cost's words), in the reader's language:
 * `english` (its English, sent beside it) without it or when the catalog lacks a message. */
export function renderData(json: unknown, english: string, title: string): string {
  if (current === ENGLISH || !json || typeof json !== "object") return english;
  let message: Text;
  try {
    message = fromJson(TextSchema, json as JsonValue);
  } catch {
    return english;
  }
  return render(message, english, title);
}

/** A label, event text or score line the API sent: its Text in the reader's language with the title's
 * catalog, or the English string sent beside it when the title has no catalog or it lacks a message. */
export function render(message: Text | undefined, english: string, title: string): string {
  if (current === ENGLISH || !message?.template) return english;
  const catalog = titles.get(`${current}/${title}`);
  try {
    if (!catalog) throw new Missing(message.template);
    return rendered(message.template, message.arguments, catalog);
  } catch (error) {
    if (!(error instanceof Missing)) throw error;
    note(error.message);
    return english;
  }
}

/** Items as one list in the reader's language ("a, b, c"; "甲、乙、丙"). */
export function list(items: string[]): string {
  return items.join(t("web.list.separator", ", "));
}
