// Tiny DOM helpers.
export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Record<string, string> = {},
  ...children: (Node | string)[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) element.setAttribute(name, value);
  element.append(...children);
  return element;
}

export function button(label: string, onClick: () => unknown, attrs: Record<string, string> = {}): HTMLButtonElement {
  const b = el("button", attrs, label);
  b.addEventListener("click", () => void onClick());
  return b;
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
}
