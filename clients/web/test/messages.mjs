// Lists every message the web client's sources look up (for tests/clients/test_web_catalogs.py): each
// call of src/i18n.ts's `t(id, english, args)` and `term(title, kind, key, english)`, read with the
// TypeScript compiler's type checker, so a constant ("puertorico") counts as the string it holds.
//
// Usage: node test/messages.mjs   (from clients/web/)
// Prints one JSON line: [{file, line, call: "t", id, english, args}, {file, line, call: "term", title,
// kind, key, english}], each value the string it always is, or null when it varies (args: the names of
// an object literal's properties, null when not one).
import ts from "typescript";
import { relative, resolve } from "node:path";

const I18N = resolve("src/i18n.ts");
const config = ts.getParsedCommandLineOfConfigFile("tsconfig.json", {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} });
const program = ts.createProgram(config.fileNames, config.options);
const checker = program.getTypeChecker();
const found = [];

/** The string an expression always is, or null. */
function constant(node) {
  if (!node) return null;
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text;
  const type = checker.getTypeAtLocation(node);
  return type.isStringLiteral() ? type.value : null;
}

/** The i18n function a call calls ("t", "term"), or null. */
function callee(call) {
  if (!ts.isIdentifier(call.expression)) return null;
  let symbol = checker.getSymbolAtLocation(call.expression);
  if (symbol && symbol.flags & ts.SymbolFlags.Alias) symbol = checker.getAliasedSymbol(symbol);
  const declaration = symbol?.declarations?.[0];
  if (!declaration || resolve(declaration.getSourceFile().fileName) !== I18N) return null;
  return ["t", "term"].includes(symbol.name) ? symbol.name : null;
}

function names(node) {
  if (!node || !ts.isObjectLiteralExpression(node)) return null;
  return node.properties.map((property) => property.name?.getText()).filter(Boolean);
}

for (const source of program.getSourceFiles()) {
  const file = resolve(source.fileName);
  if (!file.startsWith(resolve("src")) || file.includes("/src/gen/")) continue;
  const visit = (node) => {
    if (ts.isCallExpression(node)) {
      const call = callee(node);
      const where = { file: relative(".", file), line: source.getLineAndCharacterOfPosition(node.getStart()).line + 1, call };
      const [a, b, c, d] = node.arguments;
      if (call === "t") found.push({ ...where, id: constant(a), english: constant(b), args: c ? names(c) : [] });
      if (call === "term") found.push({ ...where, title: constant(a), kind: constant(b), key: constant(c), english: constant(d) });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
}
console.log(JSON.stringify(found));
