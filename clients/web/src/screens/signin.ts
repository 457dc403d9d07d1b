// Signing in: as a guest, or with an account (signing in or registering).
import { accounts, keepToken } from "../api";
import { button, card, el, field, show } from "../dom";
import { t } from "../i18n";
import { guarded } from "./common";

/** The sign-in screen; `signedIn` runs once a token is kept. */
export function signInScreen(signedIn: () => Promise<void>): void {
  const screen = show("signin");
  const name = el("input", { id: "guest-name", placeholder: t("web.signin.name_placeholder", "your name"), value: t("web.signin.default_name", "Guest"), autocomplete: "nickname" });
  const user = el("input", { id: "username", placeholder: t("web.signin.username_placeholder", "username"), autocomplete: "username" });
  const password = el("input", { id: "password", placeholder: t("web.signin.password_placeholder", "password"), type: "password", autocomplete: "current-password" });
  const enter = (token: string | undefined) => {
    keepToken(token ?? "");
    return signedIn();
  };
  const guest = el("form", { class: "stack" },
    field(t("web.signin.name", "Name others see"), name),
    el("button", { id: "guest", type: "submit", class: "primary" }, t("web.signin.guest", "Play as guest")));
  guest.addEventListener("submit", (event) => {
    event.preventDefault();
    void guarded(async () => enter((await accounts.createGuest({ displayName: name.value })).session?.token));
  });
  const named = el("form", { class: "stack" },
    field(t("web.signin.username", "User name"), user),
    field(t("web.signin.password", "Password"), password),
    el("div", { class: "row" },
      el("button", { id: "signin-account", type: "submit", class: "primary" }, t("web.signin.sign_in", "Sign in")),
      button(t("web.signin.register", "Register"), () => guarded(async () => {
        const reply = await accounts.register({ username: user.value, password: password.value, displayName: user.value });
        await enter(reply.session?.token);
      }), { id: "register" })));
  named.addEventListener("submit", (event) => {
    event.preventDefault();
    void guarded(async () => enter((await accounts.signIn({ username: user.value, password: password.value })).session?.token));
  });
  screen.replaceChildren(
    el("div", { class: "signin" },
      el("p", { class: "lead" }, t("web.signin.lead", "Play board games online against people and bots: open a lobby, find a match, follow your games.")),
      el("div", { class: "cards" },
        card(t("web.signin.guest_heading", "Play now"), guest),
        card(t("web.signin.account_heading", "Your account"), named))),
  );
}
