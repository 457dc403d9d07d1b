// The generic view of any title: a message's JSON as a readable, foldable tree, and as one line.
import type { JsonValue } from "@bufbuild/protobuf";

export function tree(value: JsonValue, label = "view", open = true): HTMLElement {
  if (value === null || typeof value !== "object") {
    const leaf = document.createElement("div");
    leaf.className = "leaf";
    leaf.textContent = `${label}: ${JSON.stringify(value)}`;
    return leaf;
  }
  const node = document.createElement("details");
  node.open = open;
  const summary = document.createElement("summary");
  const entries = Array.isArray(value) ? value.map((v, i) => [String(i), v] as const) : Object.entries(value);
  summary.textContent = Array.isArray(value) ? `${label} [${value.length}]` : label;
  node.append(summary);
  for (const [key, child] of entries) node.append(tree(child as JsonValue, key, false));
  return node;
}

const BRIEF_LENGTH = 120;

/** A message's JSON on one line, its field names as written ("takeTile: position 3"); cut short past
 * BRIEF_LENGTH characters. */
export function brief(value: JsonValue): string {
  const line = (v: JsonValue): string => {
    if (v === null || typeof v !== "object") return typeof v === "string" ? v : JSON.stringify(v);
    if (Array.isArray(v)) return `[${v.map(line).join(", ")}]`;
    const entries = Object.entries(v);
    if (entries.length === 1 && entries[0][1] !== null && typeof entries[0][1] === "object" && !Array.isArray(entries[0][1])) {
      const inner = line(entries[0][1]);
      return inner ? `${entries[0][0]}: ${inner}` : entries[0][0];
    }
    return entries.map(([key, child]) => `${key} ${line(child as JsonValue)}`).join(", ");
  };
  const text = line(value);
  return text.length > BRIEF_LENGTH ? `${text.slice(0, BRIEF_LENGTH - 1)}…` : text;
}
