// The pure part of the Flows area: a flow's graph read the way the server's engine reads it
// (engine/flow/graph.py), put in words, and the server's save problems mapped to their steps.

export type RawNode = { id?: unknown; type?: unknown; label?: unknown; config?: unknown; data?: { label?: unknown; config?: unknown } };
export type RawEdge = { id?: unknown; source?: unknown; target?: unknown; type?: unknown; priority?: unknown; condition?: unknown; label?: unknown; sourceHandle?: unknown; meta?: { outcome?: unknown } };
export type Definition = { id?: string; entry?: string; nodes?: RawNode[]; edges?: RawEdge[]; [key: string]: unknown };

export type Connection = { id: string; target: string; targetLabel: string; when: string };
export type OutlineStep = { id: string; label: string; type: string; kind: string; next: Connection[] };

/** The Flow ID rule the server applies (definitions.FLOW_ID). */
export const FLOW_ID = /^[a-z0-9][a-z0-9-]{0,139}$/;

export function flowIdFromName(name: string): string {
	return name
		.normalize("NFKD")
		.replace(/[\u0300-\u036f]/g, "")
		.toLowerCase()
		.replace(/[^a-z0-9]+/g, "-")
		.replace(/^-+|-+$/g, "")
		.slice(0, 140)
		.replace(/-+$/, "");
}

export function flowIdProblem(id: string): string | undefined {
	if (!id) return "Give the flow an ID.";
	if (!FLOW_ID.test(id)) return "Use only lower-case letters, digits and dashes, starting with a letter or digit (e.g. qualify-leads).";
	return undefined;
}

const KINDS: Record<string, string> = {
	"trigger.webhook": "Starts when another system sends it a request",
	"trigger.schedule": "Starts on a schedule",
	"trigger.doc-event": "Starts when a record changes",
	"agent.run": "Ask an agent",
	"tool.call": "Use a tool",
	"router.llm": "Let a model choose the next step",
	"human.approval": "Ask a person to approve",
	http_request: "Call a web address",
	condition: "Check a condition",
	transform: "Reshape data",
	loop: "Repeat for each item",
	end: "Finish",
};

export function describeType(type: string): string {
	return KINDS[type] ?? `Unknown kind of step (${type || "none"})`;
}

const text = (value: unknown): string => (value === undefined || value === null ? "" : String(value));

function nodeLabel(node: RawNode): string {
	return text(node.data?.label ?? node.label) || text(node.id);
}

function outcomeOf(edge: RawEdge): string {
	return text(edge.meta?.outcome ?? edge.sourceHandle).toLowerCase();
}

const OUTCOMES: Record<string, string> = {
	approved: "if approved",
	rejected: "if rejected",
	timeout: "if nobody answers in time",
	true: "if the condition holds",
	false: "if the condition does not hold",
	body: "for each item",
	done: "when all items are done",
};

/** When a connection is followed, in words (engine/flow/edges.py). */
export function describeWhen(edge: RawEdge): string {
	const parts: string[] = [];
	const outcome = outcomeOf(edge);
	if (outcome) parts.push(OUTCOMES[outcome] ?? `on "${outcome}"`);
	const type = text(edge.type) || "always";
	if (type === "on_success" && !outcome) parts.push("if it succeeds");
	if (type === "on_failure") parts.push("if it fails");
	if (type === "expression") parts.push(`when ${text(edge.condition) || "(no condition given)"}`);
	return parts.length ? parts.join(", ") : "always";
}

function entryOf(definition: Definition, nodes: RawNode[]): string | undefined {
	if (definition.entry) return definition.entry;
	const triggers = nodes.filter((node) => text(node.type).startsWith("trigger."));
	if (triggers.length === 1) return text(triggers[0]?.id);
	return nodes[0] ? text(nodes[0].id) : undefined;
}

/** The ids of `ids` in the outline's order: breadth first from `entry` along `next` (a step's ways
 * on, in the order the engine tries them), then from each step not yet met, in the order written.
 * The server names a flow's problems in this order too (engine/flow/circles.py `outline`). */
export function outlineOrder(entry: string | null | undefined, ids: string[], next: (id: string) => string[]): string[] {
	const known = new Set(ids);
	const order: string[] = [];
	const seen = new Set<string>();
	for (const start of [entry, ...ids]) {
		const pending = start === null || start === undefined ? [] : [start];
		while (pending.length) {
			const id = pending.shift() as string;
			if (seen.has(id) || !known.has(id)) continue;
			seen.add(id);
			order.push(id);
			pending.push(...next(id));
		}
	}
	return order;
}

/** The steps in the order a run meets them: from the first step along the connections (highest
 * priority first, as the engine tries them), then any step nothing leads to. */
export function outline(definition: Definition): OutlineStep[] {
	const nodes = (definition.nodes ?? []).filter((node): node is RawNode => typeof node === "object" && node !== null);
	const edges = (definition.edges ?? []).filter((edge): edge is RawEdge => typeof edge === "object" && edge !== null);
	const byId = new Map(nodes.map((node) => [text(node.id), node]));
	const leaving = (id: string) =>
		edges
			.map((edge, order) => ({ edge, order }))
			.filter(({ edge }) => text(edge.source) === id)
			.sort((a, b) => Number(b.edge.priority ?? 0) - Number(a.edge.priority ?? 0) || a.order - b.order)
			.map(({ edge }) => edge);
	const order = outlineOrder(entryOf(definition, nodes), [...byId.keys()], (id) => leaving(id).map((edge) => text(edge.target)));
	return order.map((id) => {
		const node = byId.get(id) as RawNode;
		const type = text(node.type);
		return {
			id,
			label: nodeLabel(node),
			type,
			kind: describeType(type),
			next: leaving(id).map((edge, index) => {
				const target = text(edge.target);
				const found = byId.get(target);
				return { id: text(edge.id) || `${id}-${index}`, target, targetLabel: found ? nodeLabel(found) : `a missing step (${target})`, when: describeWhen(edge) };
			}),
		};
	});
}

export type Problems = { byNode: Record<string, string[]>; general: string[] };

/** The server's save error ("Node <label> (<id>): ..." per line, see definitions._describe) split
 * into the steps it names; lines naming no step stay general. */
export function problemsByNode(message: string, definition: Definition): Problems {
	const prefixes = (definition.nodes ?? []).flatMap((node) => {
		const id = text(node.id);
		const label = nodeLabel(node);
		return [{ id, prefix: `Node ${label} (${id}): ` }, { id, prefix: `Node ${id}: ` }];
	});
	const found: Problems = { byNode: {}, general: [] };
	for (const line of message.split("\n").map((part) => part.trim()).filter(Boolean)) {
		const match = prefixes.filter(({ prefix }) => line.startsWith(prefix)).sort((a, b) => b.prefix.length - a.prefix.length)[0];
		if (match) (found.byNode[match.id] ??= []).push(line.slice(match.prefix.length));
		else found.general.push(line);
	}
	return found;
}

/** A run's input as typed: empty is no input, otherwise it must be a JSON object. */
export function parseInput(value: string): { ok: true; payload: Record<string, unknown> | null } | { ok: false; error: string } {
	if (!value.trim()) return { ok: true, payload: null };
	let parsed: unknown;
	try {
		parsed = JSON.parse(value);
	} catch {
		return { ok: false, error: 'This is not readable. Write it like {"customer": "ACME", "amount": 100}.' };
	}
	if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) return { ok: false, error: 'The input must be a set of named values in braces, like {"customer": "ACME"}.' };
	return { ok: true, payload: parsed as Record<string, unknown> };
}

/** An imported file as a flow: an object with steps, taking this flow's ID. */
export function parseImport(value: string, flowId: string): { ok: true; definition: Definition } | { ok: false; error: string } {
	let parsed: unknown;
	try {
		parsed = JSON.parse(value);
	} catch {
		return { ok: false, error: "This is not a readable JSON file." };
	}
	if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed) || !Array.isArray((parsed as Definition).nodes)) return { ok: false, error: "This file does not hold a flow: it needs a list of nodes." };
	return { ok: true, definition: { ...(parsed as Definition), id: flowId } };
}

export const RUN_ACTIVE = ["Queued", "Running"];
/** Statuses in which a run waits for a person: an approval, or a decision after an interruption. */
export const RUN_DECIDING = ["Waiting Approval", "Needs Attention"];

/** Who may retry, skip or end a run that Needs Attention (huf/ai/flow/attention.py may_decide). */
export const WHO_RESOLVES = "The person who started the run, the flow's approvers or a Huf Manager decide what happens next.";

/** Step statuses whose `error` is not a failure: the interruption's message, or who skipped the step
 * or ended the run there. */
export const STEP_NOTES = ["Needs Attention", "Skipped", "Cancelled"];

/** What a step's `repeats` says: Huf was interrupted while running it and ran it again. */
export function repeatWords(repeats: number | null | undefined): string | null {
	if (!repeats) return null;
	return repeats === 1 ? "Run again after an interruption" : `Run again ${repeats} times after interruptions`;
}

export function formatMs(ms: number | null | undefined): string {
	if (ms == null) return "—";
	return ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(1)} s`;
}

export function when(value: string | null | undefined): string {
	return value ? new Date(value.replace(" ", "T")).toLocaleString() : "—";
}
