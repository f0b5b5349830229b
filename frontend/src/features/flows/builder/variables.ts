// The names a step can read from the flow's data (engine/flow/step.py, simple.py, control.py), for
// the hints under its conditions and placeholders: what started the run, the result of every step
// that can run before it (and the names those steps keep their results under), and the item and
// position of each loop whose repeated part it belongs to.
import type { LinkEdge, StepNode } from "./catalog";
import { evaluate } from "./evaluate";

/** `step`: the name of the step whose result it is, `type` that step's kind (for its declared output). */
export type Variable = { name: string; description: string; step?: string; type?: string };

// Python words that can't follow a dot in an expression (`nodes.if` does not parse).
const KEYWORDS = new Set(["and", "as", "assert", "async", "await", "break", "class", "continue", "def", "del", "elif", "else", "except", "finally", "for", "from", "global", "if", "import", "in", "is", "lambda", "nonlocal", "not", "or", "pass", "raise", "return", "try", "while", "with", "yield", "None", "True", "False"]);

/** A name an expression can use as it is: letters, digits and _, not starting with _ or a digit. */
const isPlainName = (name: string) => /^[A-Za-z][A-Za-z0-9_]*$/.test(name) && !KEYWORDS.has(name);

/** How an expression reaches a step's result: nodes.score, or nodes["score-lead"] for other ids. */
export const resultPath = (id: string) => (isPlainName(id) ? `nodes.${id}` : `nodes[${JSON.stringify(id)}]`);

const labelOf = (node: StepNode) => node.data.label || node.id;
const text = (value: unknown) => (typeof value === "string" ? value.trim() : "");

/** Every step from which `nodeId` can be reached, nearest first, without `nodeId` itself. */
function ancestors(nodeId: string, edges: LinkEdge[]): string[] {
	const seen = new Set([nodeId]);
	const found: string[] = [];
	let frontier = [nodeId];
	while (frontier.length) {
		const next: string[] = [];
		for (const edge of edges) {
			if (frontier.includes(edge.target) && !seen.has(edge.source)) {
				seen.add(edge.source);
				found.push(edge.source);
				next.push(edge.source);
			}
		}
		frontier = next;
	}
	return found;
}

/** The steps a loop repeats: reachable from its body (its config or its "body" connections) without going back through the loop. */
function loopBody(loop: StepNode, edges: LinkEdge[]): Set<string> {
	const starts = text(loop.data.config.body) ? [text(loop.data.config.body)] : edges.filter((edge) => edge.source === loop.id && edge.sourceHandle === "body").map((edge) => edge.target);
	const body = new Set<string>();
	const pending = starts.filter((id) => id !== loop.id);
	while (pending.length) {
		const id = pending.pop() as string;
		if (body.has(id)) continue;
		body.add(id);
		for (const edge of edges) if (edge.source === id && edge.target !== loop.id && !body.has(edge.target)) pending.push(edge.target);
	}
	return body;
}

/** The values a transform step sets at the top of the flow's data. */
function keysSetBy(node: StepNode): string[] {
	const config = node.data.config;
	if (node.type !== "transform") return [];
	if (config.mode === "template") return [text(config.key) || "text"];
	return typeof config.mappings === "object" && config.mappings !== null ? Object.keys(config.mappings) : [];
}

export function variablesAt(nodeId: string, nodes: StepNode[], edges: LinkEdge[]): Variable[] {
	const byId = new Map(nodes.map((node) => [node.id, node]));
	const found: Variable[] = [{ name: "trigger", description: "what started the run" }];
	const add = (name: string, description: string, from?: StepNode) => {
		if (!found.some((variable) => variable.name === name)) found.push({ name, description, ...(from ? { step: labelOf(from), type: from.type } : {}) });
	};
	for (const loop of nodes) {
		if (loop.type !== "loop" || !loopBody(loop, edges).has(nodeId)) continue;
		add(text(loop.data.config.item_var) || "item", `the item "${labelOf(loop)}" is working on`);
		add(text(loop.data.config.index_var) || "index", `the position of that item in "${labelOf(loop)}", from 0`);
	}
	for (const id of ancestors(nodeId, edges)) {
		const node = byId.get(id);
		if (!node) continue;
		const about = `the result of "${labelOf(node)}"`;
		add(resultPath(id), about, node);
		const kept = text(node.data.config.output_key);
		if (isPlainName(kept)) add(kept, about, node);
		for (const key of keysSetBy(node).filter(isPlainName)) add(key, `set by "${labelOf(node)}"`, node);
	}
	return found;
}

/** What a step's result holds when no test run has shown it yet (engine/flow/calls.py). */
const DECLARED: Record<string, string[]> = {
	http_request: ["success", "status_code", "headers", "data", "final_url"],
	"human.approval": ["outcome", "comment", "by"],
};
const MAX_FIELDS = 30;

/** One entry of the insert picker: what it inserts, the name a person reads, the value it had in the
 * last test run (`has`: whether that run reached it), and the fields inside it. */
export type Pick = { insert: string; title: string; has: boolean; value: unknown; fields: Pick[] };

/** How an expression reaches `key` inside `path`: path.key, or path["key"] for other keys. */
const fieldPath = (path: string, key: string) => (isPlainName(key) ? `${path}.${key}` : `${path}[${JSON.stringify(key)}]`);

/** The insert picker's entries: the values a step can read, steps by their names, each with the
 * fields its result has in the last test run (`data`: that run's flow data), else its declared ones. */
export function picks(variables: Variable[], data: Record<string, unknown> | null): Pick[] {
	const entry = (insert: string, title: string, declared: string[] = []): Pick => {
		const read = data ? evaluate(insert, data) : null;
		const found = read?.ok ? { has: true, value: read.value } : { has: false, value: undefined };
		const record = typeof found.value === "object" && found.value !== null && !Array.isArray(found.value) ? (found.value as Record<string, unknown>) : null;
		const keys = record ? Object.keys(record) : found.has ? [] : declared;
		return { insert, title, ...found, fields: keys.slice(0, MAX_FIELDS).map((key) => entry(fieldPath(insert, key), key)) };
	};
	return variables.map((variable) => {
		const title = variable.name === "trigger" ? "Run input" : variable.step ? (variable.name.startsWith("nodes") ? variable.step : `${variable.name} (${variable.step})`) : variable.name;
		return entry(variable.name, title, variable.type ? DECLARED[variable.type] : undefined);
	});
}
