// Small helpers drawing SVG elements.
const NS = "http://www.w3.org/2000/svg";

export type Attrs = Record<string, string | number>;

export function svg(tag: string, attrs: Attrs = {}, ...children: (Element | string)[]): SVGElement {
  const element = document.createElementNS(NS, tag);
  for (const [name, value] of Object.entries(attrs)) element.setAttribute(name, String(value));
  for (const child of children) element.append(child);
  return element;
}

export function text(x: number, y: number, content: string, attrs: Attrs = {}): SVGElement {
  return svg("text", { x, y, "font-size": 11, "font-family": "sans-serif", ...attrs }, content);
}

/** A board's picture: `width` x `height`, labelled for people and tests. */
export function picture(title: string, width: number, height: number): SVGElement {
  return svg("svg", {
    viewBox: `0 0 ${width} ${height}`,
    width,
    height,
    role: "img",
    "aria-label": title,
    class: "board",
  });
}

// Characters about twice as wide as a Latin letter (Chinese, Japanese, Korean, full-width forms); a
// run of text breaks between any two of them, closing punctuation kept with the character before.
const WIDE = "\u2e80-\u9fff\uac00-\ud7af\uf900-\ufaff\ufe30-\ufe4f\uff00-\uffef";
const PIECES = new RegExp(`\\s+|[${WIDE}][、，。：；）」』]*|[^\\s${WIDE}]+`, "g");
const WIDE_CHAR = new RegExp(`[${WIDE}]`);

/** A text's width in Latin letters (a wide character counts as 1.8). */
export function letters(text: string): number {
  let width = 0;
  for (const char of text) width += WIDE_CHAR.test(char) ? 1.8 : 1;
  return width;
}

/** A text in lines of at most `most` letters (`letters`), broken at spaces and between wide characters
 * (a word longer than a line is a line of its own). */
export function lines(text: string, most: number): string[] {
  const found: string[] = [];
  let space = false;
  for (const piece of text.match(PIECES) ?? []) {
    if (!piece.trim()) {
      space = true;
      continue;
    }
    const last = found[found.length - 1];
    const joined = last === undefined ? piece : last + (space ? " " : "") + piece;
    if (last !== undefined && letters(joined) <= most) found[found.length - 1] = joined;
    else found.push(piece);
    space = false;
  }
  return found;
}

/** An enum name without its type prefix, for labels: "TILE_CORN" -> "corn". */
export function short(name: unknown): string {
  const value = String(name ?? "");
  const parts = value.split("_");
  return (parts.length > 1 ? parts.slice(1) : parts).join(" ").toLowerCase();
}

// deno-lint-ignore no-explicit-any
export type Json = any;

/** One of the seat's legal actions, as a board sees it: its place in the list, the Action message as
 * protobuf JSON, and its label. */
export type Legal = { index: number; action: Json; label: string };

/** Make `element` act: clicking it (or Enter/Space on it) takes `legal`'s action, or offers a choice
 * when several apply there. The page wires the click (main.ts); a board only marks where. */
export function actionable(element: SVGElement, legal: Legal[]): SVGElement {
  if (!legal.length) return element;
  element.setAttribute("data-actions", legal.map((l) => l.index).join(" "));
  element.setAttribute("tabindex", "0");
  element.setAttribute("role", "button");
  element.setAttribute("aria-label", legal.map((l) => l.label).join("; "));
  element.classList.add("actionable");
  element.append(svg("title", {}, legal.map((l) => l.label).join("\n")));
  return element;
}
