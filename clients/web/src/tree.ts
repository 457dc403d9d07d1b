// The generic view of any title: a message's JSON as a readable, foldable tree.
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
