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

/** An enum name without its type prefix, for labels: "TILE_CORN" -> "corn". */
export function short(name: unknown): string {
  const value = String(name ?? "");
  const parts = value.split("_");
  return (parts.length > 1 ? parts.slice(1) : parts).join(" ").toLowerCase();
}

// deno-lint-ignore no-explicit-any
export type Json = any;
