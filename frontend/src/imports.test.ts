// The web app's modules import one another without a circle: a circle makes a module's exports
// undefined while the other one is still loading, and makes the code hard to read in order.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const SRC = resolve(__dirname);
const EXTENSIONS = [".ts", ".tsx", "/index.ts", "/index.tsx"];

function sources(folder: string): string[] {
	return readdirSync(folder).flatMap((name) => {
		const path = join(folder, name);
		if (statSync(path).isDirectory()) return sources(path);
		return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) ? [path] : [];
	});
}

/** The files of this app a module imports (type-only imports included: they still tie the two). */
function importsOf(file: string): string[] {
	const text = readFileSync(file, "utf8");
	const found = [...text.matchAll(/(?:import|export)[^"';]*?from\s*["'](\.[^"']+)["']/g)].map((match) => match[1] ?? "");
	return found.flatMap((spec) => {
		const base = resolve(dirname(file), spec);
		const hit = EXTENSIONS.map((ending) => base + ending).find((path) => statSync(path, { throwIfNoEntry: false })?.isFile());
		return hit ? [hit] : [];
	});
}

/** Every circle, each as the files along it (Tarjan's strongly connected components of two or more). */
function circles(graph: Map<string, string[]>): string[][] {
	let next = 0;
	const index = new Map<string, number>();
	const low = new Map<string, number>();
	const stack: string[] = [];
	const found: string[][] = [];
	const visit = (node: string) => {
		index.set(node, next);
		low.set(node, next++);
		stack.push(node);
		for (const target of graph.get(node) ?? []) {
			if (!index.has(target)) {
				visit(target);
				low.set(node, Math.min(low.get(node)!, low.get(target)!));
			} else if (stack.includes(target)) low.set(node, Math.min(low.get(node)!, index.get(target)!));
		}
		if (low.get(node) !== index.get(node)) return;
		const group: string[] = [];
		let member: string;
		do {
			member = stack.pop()!;
			group.push(member);
		} while (member !== node);
		if (group.length > 1 || (graph.get(node) ?? []).includes(node)) found.push(group.sort());
	};
	for (const node of graph.keys()) if (!index.has(node)) visit(node);
	return found;
}

describe("imports", () => {
	it("finds a circle when there is one", () => {
		const graph = new Map([["a", ["b"]], ["b", ["c"]], ["c", ["a"]], ["d", ["a"]]]);
		expect(circles(graph)).toEqual([["a", "b", "c"]]);
	});

	it("has no circle in the web app", () => {
		const graph = new Map(sources(SRC).map((file) => [file, importsOf(file)]));
		expect(graph.size).toBeGreaterThan(50);
		expect(circles(graph).map((group) => group.map((file) => relative(SRC, file)))).toEqual([]);
	});
});
