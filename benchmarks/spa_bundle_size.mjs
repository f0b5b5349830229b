// Gzipped size of what the web app's first screen loads (the entry script, the chunks it imports
// statically, its styles), against the 300 KB budget; the screens loaded on demand are listed apart.
// The flow builder is measured on its own: what opening a flow adds to the first screen (the flow
// page, the canvas and everything they import), against its 120 KB budget.
// Run after a build:  node benchmarks/spa_bundle_size.mjs   (npm run size in frontend/ does the same)
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";

const BUDGET_KB = 300;
const FLOWS_BUDGET_KB = 120;
const FLOW_ROUTE = ["src/features/flows/FlowPage.tsx", "src/features/flows/builder/Builder.tsx"];
const out = join(dirname(fileURLToPath(import.meta.url)), "..", "huf", "public", "frontend");
const manifest = JSON.parse(readFileSync(join(out, ".vite", "manifest.json"), "utf8"));
const gz = (file) => gzipSync(readFileSync(join(out, file)), { level: 6 }).length / 1024;

/** The files `key` loads at once: its own, its styles and its static imports, all the way down. */
const closure = (key, into = new Set()) => {
	const chunk = manifest[key];
	if (!chunk || into.has(chunk.file)) return into;
	into.add(chunk.file);
	for (const css of chunk.css ?? []) into.add(css);
	for (const imported of chunk.imports ?? []) closure(imported, into);
	return into;
};
const first = closure("index.html");

const firstKb = [...first].reduce((sum, file) => sum + gz(file), 0);
const firstJsKb = [...first].filter((file) => file.endsWith(".js")).reduce((sum, file) => sum + gz(file), 0);
const later = Object.values(manifest).filter((chunk) => chunk.file.endsWith(".js") && !first.has(chunk.file));
console.log(`first screen: ${firstJsKb.toFixed(1)} KB of JavaScript gzipped (${(firstKb - firstJsKb).toFixed(1)} KB of styles); budget ${BUDGET_KB} KB, ratio ${(firstJsKb / BUDGET_KB).toFixed(2)}`);
console.log(`loaded on demand: ${later.map((chunk) => `${chunk.name ?? chunk.file} ${gz(chunk.file).toFixed(1)} KB`).join(", ")}`);
if (firstJsKb > BUDGET_KB) process.exitCode = 1;

const flows = new Set(FLOW_ROUTE.flatMap((key) => [...closure(key)]).filter((file) => file.endsWith(".js") && !first.has(file)));
const flowsKb = [...flows].reduce((sum, file) => sum + gz(file), 0);
const chat = closure("src/features/chat/ChatPage.tsx", new Set(first));
const canvasInFirst = [...chat].some((file) => file.endsWith(".js") && readFileSync(join(out, file), "utf8").includes("react-flow__node"));
console.log(`opening a flow adds ${flowsKb.toFixed(1)} KB of JavaScript gzipped (the flow page and the builder); budget ${FLOWS_BUDGET_KB} KB, ratio ${(flowsKb / FLOWS_BUDGET_KB).toFixed(2)}`);
console.log(`the first screen and the chat ${canvasInFirst ? "LOAD" : "do not load"} the canvas`);
if (!flows.size || flowsKb > FLOWS_BUDGET_KB || canvasInFirst) process.exitCode = 1;
