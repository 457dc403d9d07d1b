// Drives undo and takebacks on the play screen in headless Chromium (puppeteer-core, pointed at Debian's
// chromium), as the two players of one game whose tokens the test made: the mover (E2E_MOVER_TOKEN, its
// seat E2E_MOVER_SEAT acting at version E2E_VERSION, its first legal action one it may undo) and the
// other (E2E_OTHER_TOKEN), each in a browser context of its own, the other with a second tab on its inbox.
//
// 1. The mover takes its first action, undoes it with the Undo button, then presses U: refused.
// 2. The mover takes its first action until the turn passes to the other seat, presses Undo (refused:
//    a barrier), asks for a takeback; the other player's page shows the request (and its inbox), and
//    the other player accepts it with the keyboard: both pages go back.
// 3. The same again, the other player declining from its inbox.
// 4. The other player's page switched to E2E_LOCALE; the mover's lobby form: its take-back settings as
//    shown, then chosen, and the lobby created.
//
// Prints one JSON line: {first: {...}, takeback: {...}, declined: {...}, chinese: {undo, outcome},
// lobby: {...}, missing (messages the page lacked), problems, errors,
// seen (what each page showed when something failed)}; with E2E_OUT, pictures of the pages there.
import puppeteer from "puppeteer-core";

const env = process.env;
const url = env.E2E_URL;
const gameId = env.E2E_GAME;
const moverSeat = Number(env.E2E_MOVER_SEAT);
const TIMEOUT_MS = 30_000;
// Conditions are polled on a timer: a page behind another gets no animation frames to poll on.
const WAIT = { timeout: TIMEOUT_MS, polling: 100 };
const MOST_DECISIONS = 100; // a turn's decisions before it passes on, at most
const report = { first: {}, takeback: {}, declined: {}, chinese: {}, lobby: {}, missing: [], problems: [], errors: [], seen: {} };
const pages = {}; // by who: what each showed when something failed goes into the report

const browser = await puppeteer.launch({
  executablePath: env.E2E_CHROMIUM,
  headless: true,
  protocolTimeout: 20_000,
  args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"],
});
let closing = false;

/** A page of a new browser context signed in with `token`, every failure it reports noted. */
async function open(token, who) {
  const context = await browser.createBrowserContext();
  const page = await context.newPage();
  pages[who] = page;
  listen(page, who);
  await page.evaluateOnNewDocument((value) => localStorage.setItem("bg-token", value), token);
  await page.setViewport({ width: 1280, height: 900 });
  return page;
}

// A refused Undo or RequestTakeback is the point of some steps (the page shows why): its status and the
// browser's console line about it are no failure.
const REFUSABLE = /GameService\/(Undo|RequestTakeback)$/;

function listen(page, who) {
  const note = (problem) => { if (!closing) report.problems.push(`${who}: ${problem}`); };
  page.on("console", (m) => {
    if (m.type() === "error" && !REFUSABLE.test(m.location()?.url ?? "")) note(`console error: ${m.text()} (${m.location()?.url ?? ""})`);
  });
  page.on("console", (m) => { if (m.type() === "warn" && m.text().startsWith("missing message")) report.missing.push(m.text()); });
  page.on("pageerror", (error) => note(`uncaught: ${error}`));
  page.on("response", (r) => { if (r.status() >= 400 && !REFUSABLE.test(r.url())) note(`status ${r.status()}: ${r.url()}`); });
}

const version = (page) => page.$eval("#game", (g) => Number(g.dataset.version));
const atVersion = (page, v) => page.waitForFunction((n) => Number(document.querySelector("#game")?.dataset.version ?? -1) === n, WAIT, v);
const labels = (page) => page.$$eval("#actions .action", (buttons) => buttons.map((b) => b.textContent));
const board = (page) => page.$eval("#board", (b) => b.innerHTML);
const acting = (page) => page.$eval("#game", (g) => (g.dataset.acting ?? "").split(" ").filter(Boolean).map(Number));
const refusal = (page) => page.$eval("#undo-refusal", (r) => ({ reason: r.dataset.reason, text: r.textContent, offer: Boolean(document.querySelector("#ask-takeback")) }));
const panel = (page) => page.$eval("#takeback", (p) => ({
  status: p.dataset.status ?? "",
  returnsTo: p.dataset.returnsTo ?? "",
  ask: p.querySelector("#takeback-ask")?.textContent ?? "",
  accepted: p.querySelector("#takeback-accepted")?.textContent ?? "",
  waiting: p.querySelector("#takeback-waiting")?.textContent ?? "",
  left: p.querySelector("#takeback-left")?.textContent ?? "",
  outcome: p.querySelector("#takeback-outcome")?.textContent ?? "",
  buttons: [...p.querySelectorAll("button")].map((b) => b.id),
}));
const status = (page, wanted) => page.waitForFunction((s) => document.querySelector("#takeback")?.dataset.status === s, WAIT, wanted);

/** Click one of the mover's actions and wait for the version after it (the click made in the page at
 * once: a change the stream brings meanwhile draws the actions again). */
async function act(page) {
  const before = await version(page);
  await page.$eval("#actions .action", (action) => action.click());
  await page.waitForFunction((n) => Number(document.querySelector("#game")?.dataset.version ?? -1) > n, WAIT, before);
}

/** The mover's first action, again and again, until the turn passes on: the version before its last
 * decision with the actions and board it had then, and the version after. */
async function handOver(page) {
  for (let decisions = 0; decisions < MOST_DECISIONS; decisions++) {
    if (!(await acting(page)).includes(moverSeat)) throw new Error("the mover's turn passed on before it acted");
    const from = await version(page);
    const [actions, drawn] = [await labels(page), await board(page)];
    await act(page);
    if (!(await acting(page)).includes(moverSeat)) return { from, actions, board: drawn, at: await version(page) };
  }
  throw new Error(`the turn did not pass on in ${MOST_DECISIONS} decisions`);
}

/** Undo refused at a barrier, then a takeback asked for: the refusal and the request as the mover sees it. */
async function askTakeback(page) {
  await page.click("#undo");
  await page.waitForSelector("#undo-refusal");
  const refused = await refusal(page);
  await page.click("#ask-takeback");
  await status(page, "pending");
  return { refused, asked: await panel(page) };
}

try {
  const mover = await open(env.E2E_MOVER_TOKEN, "mover");
  const other = await open(env.E2E_OTHER_TOKEN, "other");
  const start = Number(env.E2E_VERSION);

  // 1. An action taken back, then a refusal.
  await mover.goto(`${url}#/game/${gameId}`, { waitUntil: "load" });
  await other.goto(`${url}#/game/${gameId}`, { waitUntil: "load" });
  await atVersion(mover, start);
  await atVersion(other, start);
  const first = report.first;
  first.versions = [await version(mover)];
  first.actionsBefore = await labels(mover);
  first.boardBefore = await board(mover);
  first.undoShown = Boolean(await mover.$("#undo"));
  first.otherUndoShown = Boolean(await other.$("#undo"));
  await mover.click("#actions .action");
  await atVersion(mover, start + 1);
  first.versions.push(await version(mover));
  first.boardAfterMove = await board(mover);
  await mover.click("#undo");
  await atVersion(mover, start + 2);
  await atVersion(other, start + 2);
  first.versions.push(await version(mover));
  first.otherVersion = await version(other);
  first.actionsAfterUndo = await labels(mover);
  first.boardAfterUndo = await board(mover);
  first.focused = await mover.evaluate(() => document.activeElement?.id ?? "");
  await mover.keyboard.press("u"); // the key takes back again: nothing is left to
  await mover.waitForSelector("#undo-refusal");
  first.refusal = await refusal(mover);
  first.versionAfterRefusal = await version(mover);

  // 2. A takeback asked for past a barrier, accepted by the other player with the keyboard.
  const inbox = await other.browserContext().newPage();
  listen(inbox, "other's inbox");
  await inbox.goto(`${url}#/inbox`, { waitUntil: "load" });
  await inbox.waitForSelector("#inbox-events");
  const taken = report.takeback;
  taken.handedOver = await handOver(mover);
  Object.assign(taken, await askTakeback(mover));
  await other.waitForSelector("#takeback-accept");
  taken.shown = await panel(other);
  if (env.E2E_OUT) {
    await other.screenshot({ path: `${env.E2E_OUT}/takeback-asked.png`, fullPage: true });
    await mover.screenshot({ path: `${env.E2E_OUT}/takeback-asking.png`, fullPage: true });
  }
  await new Promise((resolve) => setTimeout(resolve, 2100));
  taken.leftLater = (await panel(other)).left;
  await inbox.waitForSelector('#inbox-events li[data-kind="TAKEBACK_REQUESTED"]', WAIT);
  taken.inbox = await inbox.$eval('#inbox-events li[data-kind="TAKEBACK_REQUESTED"]', (li) => ({
    eventId: li.dataset.eventId, gameId: li.dataset.gameId, text: li.querySelector(".inbox-text span")?.textContent ?? "",
    buttons: [...li.querySelectorAll("button")].map((b) => b.className),
  }));
  await other.focus("#takeback-accept");
  await other.keyboard.press("Enter");
  await status(mover, "accepted");
  await status(other, "accepted");
  taken.moverAfter = { version: await version(mover), panel: await panel(mover), actions: await labels(mover), board: await board(mover) };
  taken.otherAfter = { version: await version(other), panel: await panel(other) };

  // 3. Asked again, declined from the other player's inbox.
  const declined = report.declined;
  declined.handedOver = await handOver(mover);
  Object.assign(declined, await askTakeback(mover));
  const item = `#inbox-events li[data-kind="TAKEBACK_REQUESTED"]:not([data-event-id="${taken.inbox.eventId}"])`;
  await inbox.waitForSelector(`${item} .takeback-decline`, WAIT);
  await inbox.click(`${item} .takeback-decline`);
  await inbox.waitForSelector(`${item} .answered`, WAIT);
  declined.inboxNote = await inbox.$eval(`${item} .answered`, (s) => s.textContent);
  await status(mover, "declined");
  declined.moverAfter = { version: await version(mover), panel: await panel(mover) };
  await status(other, "declined");
  declined.otherAfter = { version: await version(other), panel: await panel(other) };

  // The other player's page in Traditional Chinese: Undo and how the request ended.
  await other.$eval("#game", (section) => section.append(Object.assign(document.createElement("i"), { id: "drawn-before" })));
  await other.select("#locale", env.E2E_LOCALE);
  await other.waitForFunction((lang) => document.documentElement.lang === lang && !document.querySelector("#drawn-before"), WAIT, env.E2E_LOCALE.replace("_", "-"));
  report.chinese = await other.evaluate(() => ({
    undo: document.querySelector("#undo")?.textContent ?? "", outcome: document.querySelector("#takeback-outcome")?.textContent ?? "",
  }));
  if (env.E2E_OUT) {
    await other.bringToFront(); // its inbox's tab was in front
    await other.screenshot({ path: `${env.E2E_OUT}/declined-${env.E2E_LOCALE}.png`, fullPage: true });
  }

  // 4. The lobby form's take-back settings.
  await mover.goto(`${url}#/lobbies`, { waitUntil: "load" });
  await mover.waitForSelector("#create-lobby");
  report.lobby.defaults = await mover.evaluate(() => ({
    undo: document.querySelector("#lobby-undo").value,
    unrated: document.querySelector("#lobby-unrated").checked,
    botTakebacks: document.querySelector("#lobby-bot-takebacks").value,
    undoChoices: [...document.querySelectorAll("#lobby-undo option")].map((o) => o.value),
  }));
  await mover.select("#lobby-undo", env.E2E_LOBBY_UNDO);
  await mover.click("#lobby-unrated");
  await mover.select("#lobby-bot-takebacks", env.E2E_LOBBY_BOTS);
  await mover.$eval("#create-lobby", (button) => button.click());
  await mover.waitForSelector("#lobby-id");
  report.lobby.lobbyId = await mover.$eval("#lobby-id", (code) => code.textContent);
  if (env.E2E_OUT) {
    await inbox.bringToFront();
    await inbox.screenshot({ path: `${env.E2E_OUT}/inbox.png`, fullPage: true });
  }
} catch (error) {
  report.errors.push(String(error?.stack ?? error));
  for (const [who, page] of Object.entries(pages))
    report.seen[who] = await page.evaluate(() => ({
      hash: location.hash, game: { ...document.querySelector("#game")?.dataset }, takeback: document.querySelector("#takeback")?.outerHTML ?? "",
      message: document.querySelector("#message")?.textContent ?? "",
    })).catch((failed) => String(failed));
} finally {
  closing = true;
  await browser.close();
}
console.log(JSON.stringify(report));
