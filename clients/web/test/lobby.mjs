// Opens a lobby of TITLE from the page in headless Chromium (puppeteer-core, pointed at Debian's
// chromium), seats a bot at the strength the page has selected, then one at STRENGTH chosen from the
// page's list, starts the game and plays MOVES moves, noting everything the browser reports as failing
// on the way: console errors, uncaught exceptions, failed requests and responses of status 400 or more.
//
// Usage: node test/lobby.mjs   with E2E_URL, E2E_CHROMIUM, E2E_TITLE, E2E_STRENGTH (a label of the
// page's strength list) and E2E_MOVES; prints one JSON line: {strengths: [label], preselected, lobbyId,
// gameId, moves, problems: [text], errors: [text]}.
import puppeteer from "puppeteer-core";

const { E2E_URL: url, E2E_CHROMIUM: chromium, E2E_TITLE: title, E2E_STRENGTH: strength } = process.env;
const moves = Number(process.env.E2E_MOVES ?? "3");
const SEATS = 3; // the page's player and two bots
const MOVE_TIMEOUT_MS = 30_000;
const report = { strengths: [], preselected: "", lobbyId: "", gameId: "", moves: 0, problems: [], errors: [] };

const browser = await puppeteer.launch({
  executablePath: chromium,
  headless: true,
  protocolTimeout: 20_000,
  args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"],
});

let closing = false; // the open watch stream's end as the browser closes is no failure

/** Note whatever the browser reports as failing on `page`. */
function listen(page) {
  const note = (problem) => { if (!closing) report.problems.push(problem); };
  page.on("console", (m) => {
    if (m.type() === "error") note(`console error: ${m.text()} (${m.location()?.url ?? ""})`);
  });
  page.on("pageerror", (error) => note(`uncaught: ${error}`));
  page.on("requestfailed", (r) => note(`request failed: ${r.url()} (${r.failure()?.errorText})`));
  page.on("response", (r) => {
    if (r.status() >= 400) note(`status ${r.status()}: ${r.url()}`);
  });
}

const taken = (page, n) =>
  page.waitForFunction((count) => document.querySelectorAll("#lobby-seats li.taken").length === count, {}, n);

try {
  const page = await (await browser.createBrowserContext()).newPage();
  listen(page);
  await page.goto(url, { waitUntil: "networkidle0" });
  await page.waitForSelector("#guest");
  await page.$eval("#guest-name", (input) => { input.value = "Lobby host"; });
  await page.click("#guest");
  await page.waitForSelector("#create-lobby");
  await page.select("#title", title);
  // The title's options, once drawn with their labels from its catalog (the first has its own label).
  await page.waitForFunction(() => {
    const first = document.querySelector("#options select");
    return !first || first.closest("label")?.querySelector("span")?.textContent !== first.dataset.option;
  });
  report.options = await page.$$eval("#options select", (selects) => selects.map((s) => ({
    name: s.dataset.option, label: s.closest("label")?.querySelector("span")?.textContent ?? "",
    help: s.title, choices: [...s.options].map((o) => [o.value, o.textContent]),
  })));
  await page.$eval("#seats", (input, n) => { input.value = String(n); }, SEATS);
  // The form's buttons are pressed, not clicked at coordinates: the form grows when the title's labels
  // arrive, and a click at a place read a moment before could land beside the button.
  await page.$eval("#create-lobby", (button) => button.click());
  await page.waitForSelector("#add-bot");
  report.lobbyId = await page.$eval("#lobby-id", (code) => code.textContent);
  report.strengths = await page.$$eval("#bot-strength option", (options) => options.map((o) => o.dataset.level));
  report.preselected = await page.$eval("#bot-strength", (s) => s.selectedOptions[0]?.dataset.level ?? "");

  await page.$eval("#add-bot", (button) => button.click()); // the strength as the page offers it
  await taken(page, 2);
  const value = await page.$$eval("#bot-strength option", (options, label) =>
    options.find((o) => o.dataset.level === label)?.value ?? "", strength);
  if (!value) throw new Error(`the page offers no strength "${strength}"`);
  await page.select("#bot-strength", value);
  await page.$eval("#add-bot", (button) => button.click());
  await taken(page, 3);

  await page.$eval("#start", (button) => button.click());
  await page.waitForSelector("#game[data-version]");
  report.gameId = await page.$eval("#game", (game) => game.dataset.gameId);
  while (report.moves < moves) {
    await page.waitForFunction(
      () => document.querySelector("#game")?.dataset.status === "finished" || document.querySelectorAll("#actions .action").length > 0,
      { timeout: MOVE_TIMEOUT_MS },
    );
    const [status, version] = await page.$eval("#game", (g) => [g.dataset.status, Number(g.dataset.version)]);
    if (status === "finished") break;
    await page.click("#actions .action");
    report.moves += 1;
    await page.waitForFunction(
      (v) => Number(document.querySelector("#game")?.dataset.version ?? -1) > v,
      { timeout: MOVE_TIMEOUT_MS },
      version,
    );
  }
} catch (error) {
  report.errors.push(String(error?.stack ?? error));
} finally {
  closing = true;
  await browser.close();
}
console.log(JSON.stringify(report));
