// Gzipped size of what the web app's first screen loads (the entry script, the chunks it imports
// statically, its styles), against the 300 KB budget; the screens loaded on demand are listed apart.
// Run after a build:  node benchmarks/spa_bundle_size.mjs   (npm run size in frontend/ does the same)
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";

const BUDGET_KB = 300;
const out = join(dirname(fileURLToPath(import.meta.url)), "..", "huf", "public", "frontend");
const manifest = JSON.parse(readFileSync(join(out, ".vite", "manifest.json"), "utf8"));
const gz = (file) => gzipSync(readFileSync(join(out, file)), { level: 6 }).length / 1024;

const first = new Set();
const visit = (key) => {
	const chunk = manifest[key];
	if (!chunk || first.has(chunk.file)) return;
	first.add(chunk.file);
	for (const css of chunk.css ?? []) first.add(css);
	for (const imported of chunk.imports ?? []) visit(imported);
};
visit("index.html");

const firstKb = [...first].reduce((sum, file) => sum + gz(file), 0);
const firstJsKb = [...first].filter((file) => file.endsWith(".js")).reduce((sum, file) => sum + gz(file), 0);
const later = Object.values(manifest).filter((chunk) => chunk.file.endsWith(".js") && !first.has(chunk.file));
console.log(`first screen: ${firstJsKb.toFixed(1)} KB of JavaScript gzipped (${(firstKb - firstJsKb).toFixed(1)} KB of styles); budget ${BUDGET_KB} KB, ratio ${(firstJsKb / BUDGET_KB).toFixed(2)}`);
console.log(`loaded on demand: ${later.map((chunk) => `${chunk.name ?? chunk.file} ${gz(chunk.file).toFixed(1)} KB`).join(", ")}`);
if (firstJsKb > BUDGET_KB) process.exitCode = 1;
