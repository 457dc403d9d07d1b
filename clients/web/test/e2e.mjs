// Drives the web client in headless Chromium (puppeteer-core, pointed at Debian's chromium):
// plays a whole game of TITLE against three bots through the page, spectates it from a second page,
// steps through its replay, and renders and screenshots the board of every game in BOARDS.
//
// Usage: node test/e2e.mjs   with E2E_URL, E2E_CHROMIUM, E2E_TITLE, E2E_OUT (a directory) and
// E2E_BOARDS (JSON: [{title, gameId, selector}], selector "" for a title without a drawn board);
// prints one JSON line of what it saw.
import puppeteer from "puppeteer-core";

const { E2E_URL: url, E2E_CHROMIUM: chromium, E2E_TITLE: title, E2E_OUT: out } = process.env;
const boards = JSON.parse(process.env.E2E_BOARDS ?? "[]");
const MOVE_TIMEOUT_MS = 30_000;
const PROTOCOL_TIMEOUT_MS = 20_000;
const report = { moves: 0, finalVersion: -1, spectatorVersion: -1, spectatorStatus: "", replay: "", boards: [], errors: [] };

const browser = await puppeteer.launch({
  executablePath: chromium,
  headless: true,
  protocolTimeout: PROTOCOL_TIMEOUT_MS,
  args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"],
});

// Lets the test cut a page's open watch streams, as a dropped connection would.
function cuttableStreams() {
  const original = window.fetch;
  let open = [];
  window.fetch = (input, init = {}) => {
    if (!String(input instanceof Request ? input.url : input).includes("WatchGame")) return original(input, init);
    const controller = new AbortController();
    init.signal?.addEventListener("abort", () => controller.abort(init.signal.reason));
    open.push(controller);
    return original(input, { ...init, signal: controller.signal });
  };
  window.cutStreams = () => {
    for (const controller of open) controller.abort(new TypeError("network connection lost"));
    open = [];
  };
}

async function newPage(context) {
  const page = await context.newPage();
  await page.evaluateOnNewDocument(cuttableStreams);
  return page;
}

async function guestPage(name) {
  const context = await browser.createBrowserContext();
  const page = await newPage(context);
  page.on("pageerror", (error) => report.errors.push(String(error)));
  await page.setViewport({ width: 1100, height: 1400 });
  await page.goto(url, { waitUntil: "load" });
  await page.waitForSelector("#guest");
  await page.$eval("#guest-name", (input, value) => { input.value = value; }, name);
  await page.click("#guest");
  await page.waitForSelector("#create-lobby");
  return page;
}

const message = (page) => page.$eval("#message", (m) => m.textContent ?? "");
const STALE_AT_MOVE = 5;

// A second tab of the player whose watch stream is cut (and kept from reconnecting) holds an old
// view; once the first tab has moved, its move is stale and the tab refreshes its view instead.
async function staleTwin(player, gameId) {
  const twin = await newPage(player.browserContext());
  await twin.goto(`${url}?watch=${gameId}`, { waitUntil: "load" });
  await twin.waitForSelector("#actions .action");
  await twin.setRequestInterception(true);
  twin.on("request", (request) => (request.url().includes("WatchGame") ? request.abort() : request.continue()));
  await twin.evaluate(() => window.cutStreams());
  await twin.waitForFunction(() => document.querySelector("#message")?.textContent?.includes("reconnecting"));
  return twin;
}

async function cutAndResume(spectator) {
  await spectator.evaluate(() => window.cutStreams());
  await spectator.waitForFunction(() => document.querySelector("#message")?.textContent?.includes("reconnecting"));
  report.reconnectMessage = await message(spectator);
}

const status = (page) => page.$eval("#game", (game) => [game.dataset.status ?? "", Number(game.dataset.version ?? -1)]);

try {
  // A lobby of TITLE for four: the page's player and three bots, then the game.
  const player = await guestPage("Web player");
  await player.select("#title", title);
  await player.$eval("#seats", (input) => { input.value = "4"; });
  await player.$eval("#create-lobby", (button) => button.click());
  await player.waitForSelector("#add-bot");
  for (let bot = 1; bot <= 3; bot++) {
    await player.$eval("#add-bot", (button) => button.click());
    await player.waitForFunction((n) => document.querySelectorAll("#lobby-seats li.taken").length === n, {}, bot + 1);
  }
  await player.$eval("#start", (button) => button.click());
  await player.waitForSelector("#game[data-version]");
  const gameId = await player.$eval("#game", (game) => game.dataset.gameId);

  // A spectator on a page of its own.
  const spectator = await guestPage("Web spectator");
  await spectator.goto(`${url}?watch=${gameId}`, { waitUntil: "load" });
  await spectator.waitForSelector("#game[data-version]");
  report.spectatorSawBoard = (await spectator.$$("#board svg")).length > 0;

  // Play: the first labelled legal action whenever the page offers some, until the game is over.
  for (;;) {
    await player.waitForFunction(
      () => document.querySelector("#game")?.dataset.status === "finished" || document.querySelectorAll("#actions .action").length > 0,
      { timeout: MOVE_TIMEOUT_MS },
    );
    const [state, version] = await status(player);
    if (state === "finished") { report.finalVersion = version; break; }
    const twin = report.moves === STALE_AT_MOVE ? await staleTwin(player, gameId) : null;
    if (twin) {
      await cutAndResume(spectator);
      await player.bringToFront(); // a tab in the background does not take clicks
    }
    await player.click("#actions .action");
    report.moves += 1;
    await player.waitForFunction(
      (v) => Number(document.querySelector("#game")?.dataset.version ?? -1) > v || document.querySelector("#game")?.dataset.status === "finished",
      { timeout: MOVE_TIMEOUT_MS },
      version,
    );
    if (twin) {
      await twin.bringToFront();
      await twin.click("#actions .action");
      await twin.waitForFunction((v) => Number(document.querySelector("#game")?.dataset.version ?? -1) > v, { timeout: MOVE_TIMEOUT_MS }, version);
      report.staleMessages = await twin.$$eval("#recent-messages li", (items) => items.map((item) => item.textContent));
      await twin.close();
      await player.bringToFront();
    }
  }
  await spectator.waitForFunction(() => document.querySelector("#game")?.dataset.status === "finished", { timeout: MOVE_TIMEOUT_MS });
  [report.spectatorStatus, report.spectatorVersion] = await status(spectator);
  await player.screenshot({ path: `${out}/finished.png`, fullPage: false });

  // The replay: step through, then have the gateway check it.
  await player.click("#open-replay");
  await player.waitForSelector("#replay-position");
  await player.click("#replay-next");
  await player.click("#replay-next");
  report.replayPosition = await player.$eval("#replay-position", (p) => p.textContent);
  await player.click("#replay-last");
  report.replayLast = await player.$eval("#replay-position", (p) => p.textContent);
  await player.click("#replay-verify");
  await player.waitForFunction(() => (document.querySelector("#replay-check")?.textContent ?? "") !== "", { timeout: MOVE_TIMEOUT_MS });
  report.replay = await player.$eval("#replay-check", (s) => s.textContent);

  // Every title's board, as a spectator sees it.
  for (const { title: boardTitle, gameId: id, selector } of boards) {
    await spectator.goto(`${url}?watch=${id}`, { waitUntil: "load" });
    await spectator.waitForSelector("#tree details");
    const tree = (await spectator.$$("#tree details")).length;
    if (!selector) { // a title without a drawn board: its view as a tree only
      report.boards.push({ title: boardTitle, tree, elements: 0, colours: 0 });
      continue;
    }
    await spectator.waitForSelector("#board svg");
    const elements = (await spectator.$$(`#board ${selector}`)).length;
    const colours = await spectator.$eval("#board svg", async (svg) => {
      const image = new Image();
      const data = new XMLSerializer().serializeToString(svg);
      image.src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(data)}`;
      await image.decode();
      const canvas = document.createElement("canvas");
      canvas.width = image.width; canvas.height = image.height;
      const context = canvas.getContext("2d");
      context.drawImage(image, 0, 0);
      const pixels = context.getImageData(0, 0, canvas.width, canvas.height).data;
      const seen = new Set();
      for (let i = 0; i < pixels.length; i += 16) seen.add(`${pixels[i]},${pixels[i + 1]},${pixels[i + 2]},${pixels[i + 3]}`);
      return seen.size;
    });
    const board = await spectator.$("#board svg");
    await board.screenshot({ path: `${out}/board-${boardTitle}.png` });
    report.boards.push({ title: boardTitle, tree, elements, colours });
  }

  // An account: registered, signed out, signed in again; a private lobby it invites the spectator to.
  const account = await newPage(await browser.createBrowserContext());
  await account.goto(url, { waitUntil: "load" });
  const username = `web${Date.now()}`;
  await account.waitForSelector("#register");
  await account.type("#username", username);
  await account.type("#password", "a long enough password");
  await account.click("#register");
  await account.waitForSelector("#sign-out");
  await account.click("#sign-out");
  await account.waitForSelector("#sign-out", { hidden: true });
  await account.waitForSelector("#signin-account");
  await account.type("#username", username);
  await account.type("#password", "a long enough password");
  await account.click("#signin-account");
  await account.waitForSelector("#create-lobby");
  report.account = await account.$eval("#me", (me) => me.textContent);
  await account.click("#nav-leaderboards");
  await account.waitForSelector("#leaderboard[data-loaded]");
  report.leaderboardRows = await account.$$eval("#leaderboard tr.entry", (rows) => rows.length);
  await account.click("#nav-lobbies");
  await account.waitForSelector("#create-lobby");
  await account.select("#title", title);
  await account.$eval("#private", (box) => box.click());
  await account.$eval("#create-lobby", (button) => button.click());
  await account.waitForSelector("#lobby-invite");
  const lobbyId = await account.$eval("#lobby-id", (code) => code.textContent);
  const inviteCode = await account.$eval("#lobby-invite", (code) => code.textContent);
  await spectator.goto(url, { waitUntil: "load" });
  await spectator.waitForSelector("#join-invite");
  await spectator.type("#invite-code", lobbyId);
  await spectator.type("#invite-secret", inviteCode);
  await spectator.$eval("#join-invite", (button) => button.click());
  await spectator.waitForSelector("#lobby-seats");
  report.invitedSeats = await spectator.$$eval("#lobby-seats li.taken .seat-name", (seats) => seats.map((s) => s.textContent));
  await account.waitForFunction(() => document.querySelectorAll("#lobby-seats li.taken").length === 2, { timeout: MOVE_TIMEOUT_MS });
  report.hostSawGuestJoin = true;
} catch (error) {
  report.errors.push(String(error?.stack ?? error));
  for (const page of (await Promise.all(browser.browserContexts().map((c) => c.pages()))).flat()) {
    report.errors.push(`page says: ${await page.$eval("#message", (m) => m.textContent).catch(() => "?")}`);
    await page.screenshot({ path: `${out}/failed-${report.errors.length}.png` }).catch(() => {});
  }
} finally {
  await browser.close();
}
console.log(JSON.stringify(report));
