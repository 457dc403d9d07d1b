// Bundles the web client into dist/ (app.js, index.html, style.css), minified, and turns each catalog
// of the page's texts (locale/<locale>.po: msgid a message id, msgstr its ICU MessageFormat pattern)
// into dist/locale/<locale>.<digest>.json, which the page fetches when that locale is chosen (app.js
// knows each file's name). A pattern that does not parse fails the build.
import { parse } from "@formatjs/icu-messageformat-parser";
import { build } from "esbuild";
import { createHash } from "node:crypto";
import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";

const ENGLISH = "en";

/** The messages of a gettext .po file: msgid -> msgstr (the header and empty ones left out). */
function readPo(path) {
  const messages = {};
  let entry = null;
  let field = null;
  const finish = () => {
    if (entry?.msgid && entry.msgstr) messages[entry.msgid] = entry.msgstr;
  };
  readFileSync(path, "utf8").split("\n").forEach((raw, index) => {
    const line = raw.trim();
    const where = `${path}:${index + 1}`;
    if (!line || line.startsWith("#")) return;
    const keyword = /^(msgid|msgstr)\s+(".*")$/.exec(line);
    if (keyword) {
      if (keyword[1] === "msgid") {
        finish();
        entry = { msgid: "", msgstr: "" };
      } else if (!entry) throw new Error(`${where}: msgstr without msgid`);
      field = keyword[1];
      entry[field] = JSON.parse(keyword[2]);
    } else if (line.startsWith('"') && entry && field) entry[field] += JSON.parse(line);
    else throw new Error(`${where}: not a line of a .po file: ${line}`);
  });
  finish();
  return messages;
}

mkdirSync("dist", { recursive: true });
rmSync("dist/locale", { recursive: true, force: true });
mkdirSync("dist/locale");
const locales = readdirSync("locale").filter((name) => name.endsWith(".po")).map((name) => name.slice(0, -3));
locales.sort((a, b) => (a === ENGLISH ? -1 : b === ENGLISH ? 1 : a.localeCompare(b)));
const files = {};
for (const locale of locales) {
  const messages = readPo(`locale/${locale}.po`);
  for (const [id, pattern] of Object.entries(messages)) {
    try {
      parse(pattern, { ignoreTag: true });
    } catch (error) {
      throw new Error(`locale/${locale}.po: ${id}: ${error.message}: ${pattern}`);
    }
  }
  const json = JSON.stringify({ locale, messages });
  const file = `locale/${locale}.${createHash("sha256").update(json).digest("hex").slice(0, 12)}.json`;
  writeFileSync(`dist/${file}`, json);
  files[locale] = file;
}

await build({
  entryPoints: ["src/main.ts"],
  bundle: true,
  minify: true,
  format: "iife",
  target: "es2022",
  outfile: "dist/app.js",
  define: { WEB_CATALOGS: JSON.stringify(files) },
  logLevel: "warning",
});
for (const file of ["index.html", "style.css"]) copyFileSync(file, `dist/${file}`);
