// Bundles the web client into dist/ (app.js, index.html, style.css), minified.
import { build } from "esbuild";
import { copyFileSync, mkdirSync } from "node:fs";

mkdirSync("dist", { recursive: true });
await build({
  entryPoints: ["src/main.ts"],
  bundle: true,
  minify: true,
  format: "iife",
  target: "es2022",
  outfile: "dist/app.js",
  logLevel: "warning",
});
for (const file of ["index.html", "style.css"]) copyFileSync(file, `dist/${file}`);
