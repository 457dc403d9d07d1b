// Every text the page shows goes through `t`: a message id, its English template and its arguments
// ("Seat {seat}: {doubloons} doubloons"). Until a catalog for the reader's language is loaded, the
// English template is used.
export type Args = Record<string, string | number>;

const catalog = new Map<string, string>();

/** Fill a template's `{name}` arguments. */
export function format(template: string, args: Args = {}): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => (name in args ? String(args[name]) : whole));
}

/** The text of message `id` in the reader's language (its English template until one is loaded). */
export function t(id: string, english: string, args: Args = {}): string {
  return format(catalog.get(id) ?? english, args);
}

/** A game's own term (a building, a good, a tile): the message `<title>.<kind>.<key>`. */
export function term(title: string, kind: string, key: string, english: string): string {
  return t(`${title}.${kind}.${key}`, english);
}
