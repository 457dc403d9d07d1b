// Opens games in headless Chromium (puppeteer-core, pointed at Debian's chromium) as a spectator signed
// in as a guest sees them, and reports what each drawn board holds.
//
// Usage: node test/boards.mjs   with E2E_URL, E2E_CHROMIUM, E2E_GAMES (JSON: [gameId]) and E2E_LOOK_FOR
// (JSON: {key: CSS selector}); prints one JSON line: {boards: [{gameId, counts: {key: n}, texts:
// {key: text}}], errors}, each selector looked for under #board once the board's picture is drawn.
import puppeteer from "puppeteer-core";

const { E2E_URL: url, E2E_CHROMIUM: chromium } = process.env;
const games = JSON.parse(process.env.E2E_GAMES ?? "[]");
const lookFor = JSON.parse(process.env.E2E_LOOK_FOR ?? "{}");
const report = { boards: [], errors: [] };
const browser = await puppeteer.launch({
  executablePath: chromium,
  headless: true,
  protocolTimeout: 20_000,
  args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"],
});
try {
  const page = await (await browser.createBrowserContext()).newPage();
  page.on("pageerror", (error) => report.errors.push(String(error)));
  await page.goto(url, { waitUntil: "load" });
  await page.waitForSelector("#guest");
  await page.click("#guest");
  await page.waitForSelector("#create-lobby");
  for (const gameId of games) {
    await page.goto(`${url}?watch=${gameId}`, { waitUntil: "load" });
    await page.waitForSelector("#board svg");
    const counts = {}, texts = {};
    for (const [key, selector] of Object.entries(lookFor)) {
      counts[key] = (await page.$$(`#board ${selector}`)).length;
      texts[key] = await page.$$eval(`#board ${selector}`, (found) => found.map((e) => e.textContent).join(" "));
    }
    report.boards.push({ gameId, counts, texts });
  }
} catch (error) {
  report.errors.push(String(error?.stack ?? error));
} finally {
  await browser.close();
}
console.log(JSON.stringify(report));
