// A flow checked as you build it, with the rules and words of the server's check on save
// (huf/ai/engine/flow/validate.py, checks.py, circles.py, graph.py `parse`, control.py
// `branch_target`, step.py `onward`, edges.py `possible`): the graph rules, then each step's own
// settings, then circles a run could never leave. Each problem names its step (and its connection, for
// an edge's problem) and the setting it is about, so the builder can show it next to the field.
// The flow's "id" is not checked: the page always sets it.
import { EDGE_TYPES } from "./catalog";
import { checkExpression, isPath, placeholders } from "./expr";
import { grouped, isRecord, pyRepr, pyStr, pyStrip, truthy } from "./python";
import { outlineOrder, type Definition } from "../rules";

/** What exists on the site; null while it is loading (existence is not checked then). */
export type Known = { agents: Set<string> | null; tools: Map<string, { asksFirst: boolean }> | null };
export type Problem = { nodeId: string | null; edgeId?: string; field?: string; message: string };

const NODE_TYPES = [
	"trigger.webhook", "trigger.schedule", "trigger.doc-event", "agent.run", "tool.call", "router.llm",
	"human.approval", "http_request", "condition", "transform", "loop", "end",
]; // prettier-ignore
const HTTP_METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD"];
const TRANSFORM_MODES = ["copy", "map", "template"];
const USER_TYPES = ["user", "users"];
const ROLE_TYPES = ["role", "roles"];
const MAX_ITERATIONS = 10_000;

type Node = { id: string; type: string; label: string; config: Record<string, unknown> };
type Edge = { id: string; source: string; target: string; type: string; priority: number; condition: string | null; outcome: string | null; order: number };
type Graph = { nodes: Map<string, Node>; edges: Edge[]; entry: string | null; agentic: boolean };
/** A step's problem before its node id is added: the words and the setting they are about. */
type Found = { message: string; field?: string };

const text = (value: unknown): string => (value === undefined || value === null ? "" : pyStr(value));
const isWhole = (value: unknown): value is number => typeof value === "number" && Number.isInteger(value);

function priorityOf(value: unknown): number {
	// Python's int(value or 0): whole numbers, numeric text; anything else counts as 0.
	if (!truthy(value)) return 0;
	if (typeof value === "boolean") return Number(value);
	if (typeof value === "number") return Number.isFinite(value) ? Math.trunc(value) : 0;
	if (typeof value === "string" && /^\s*[+-]?\d+(_\d+)*\s*$/.test(value)) return Number(value.replace(/_/g, ""));
	return 0;
}

/** graph.py `parse`: lenient, like the server. */
function parse(definition: Definition): Graph {
	const list = (value: unknown) => (Array.isArray(value) ? value : []).filter(isRecord);
	const parsed = list(definition.nodes).map((raw): Node => {
		const data = isRecord(raw.data) ? raw.data : {};
		const config = isRecord(data.config) ? data.config : isRecord(raw.config) ? raw.config : {};
		const id = text(raw.id);
		return { id, type: text(raw.type), label: text(truthy(data.label) ? data.label : raw.label) || id, config };
	});
	const nodes = new Map(parsed.map((node) => [node.id, node])); // a repeated id keeps its first place and its last node
	const edges = list(definition.edges).map((raw, order): Edge => {
		const data = isRecord(raw.data) ? raw.data : {};
		const meta = isRecord(raw.meta) && truthy(raw.meta) ? raw.meta : isRecord(data.meta) ? data.meta : {};
		const outcome = truthy(meta.outcome) ? meta.outcome : raw.sourceHandle;
		return {
			id: text(raw.id) || `edge-${order + 1}`,
			source: text(raw.source),
			target: text(raw.target),
			type: text(raw.type) || "always",
			priority: priorityOf(raw.priority),
			condition: typeof raw.condition === "string" ? raw.condition : null,
			outcome: truthy(outcome) ? pyStr(outcome).toLowerCase() : null,
			order,
		};
	});
	const triggers = parsed.filter((node) => node.type.startsWith("trigger."));
	const entry = truthy(definition.entry) ? text(definition.entry) : triggers.length === 1 ? (triggers[0] as Node).id : (parsed[0]?.id ?? null);
	return { nodes, edges, entry, agentic: definition.mode === "Agentic" };
}

/** The edges leaving a step, highest priority first, then in the order they were written. */
function outgoing(graph: Graph, id: string): Edge[] {
	return graph.edges.filter((edge) => edge.source === id).sort((a, b) => b.priority - a.priority || a.order - b.order);
}

function flowProblems(definition: Definition, graph: Graph): Problem[] {
	const problems: Problem[] = [];
	const general = (message: string) => problems.push({ nodeId: null, message });
	if (!Array.isArray(definition.nodes) || !graph.nodes.size) general("The flow has no steps; add at least one node.");
	const counts = new Map<string, number>();
	for (const raw of (Array.isArray(definition.nodes) ? definition.nodes : []).filter(isRecord)) {
		const id = truthy(raw.id) ? pyStr(raw.id) : "";
		counts.set(id, (counts.get(id) ?? 0) + 1);
	}
	if (counts.get("")) general("A step has no id; give every node a unique id.");
	counts.delete("");
	for (const [id, count] of counts) {
		if (count > 1) problems.push({ nodeId: id, message: `${count} steps share the id ${pyRepr(id)}; give each node its own id.` });
	}
	const hops = definition.max_hops;
	if (hops !== undefined && hops !== null && !(isWhole(hops) && hops > 0)) general("max_hops must be a whole number above 0 (the most steps a run may take).");
	if (graph.entry && !graph.nodes.has(graph.entry)) general(`The entry step ${pyRepr(graph.entry)} does not exist; set entry to one of the node ids.`);
	for (const node of graph.nodes.values()) {
		if (!NODE_TYPES.includes(node.type)) problems.push({ nodeId: node.id, message: `The step type ${pyRepr(node.type)} is not available; use one of: ${NODE_TYPES.join(", ")}.` });
	}
	return problems;
}

function edgeProblems(graph: Graph, edge: Edge): Problem[] {
	const where = { nodeId: graph.nodes.has(edge.source) ? edge.source : null, edgeId: edge.id };
	const problems: Problem[] = [];
	for (const [end, name] of [["starts at", edge.source], ["leads to", edge.target]] as const) {
		if (!graph.nodes.has(name)) problems.push({ ...where, message: `Edge ${edge.id} ${end} ${pyRepr(name)}, which is not a step in this flow; connect it to an existing node.` });
	}
	if (!(EDGE_TYPES as string[]).includes(edge.type)) problems.push({ ...where, field: "type", message: `Edge ${edge.id} has the type ${pyRepr(edge.type)}; use one of: ${EDGE_TYPES.join(", ")}.` });
	if (edge.type === "expression" && !pyStrip(edge.condition ?? "")) {
		problems.push({ ...where, field: "condition", message: `Edge ${edge.id} is an expression edge without a condition; write one, such as score > 50.` });
	} else if (edge.condition && pyStrip(edge.condition)) {
		const problem = checkExpression(edge.condition);
		if (problem) problems.push({ ...where, field: "condition", message: `The condition of edge ${edge.id} cannot be used: ${problem}` });
	}
	return problems;
}

function expression(value: unknown, name: string, example: string, field: string): Found[] {
	if (typeof value !== "string" || !pyStrip(value)) return [{ field, message: `It needs ${name}, e.g. ${example}.` }];
	const problem = checkExpression(value);
	return problem ? [{ field, message: `Its ${name} cannot be used: ${problem}` }] : [];
}

/** Problems with the {{ ... }} placeholders of a text, or of the texts inside a record or list. */
function template(value: unknown, what: string, field: string): Found[] {
	if (Array.isArray(value)) return value.flatMap((item) => template(item, what, field));
	if (isRecord(value)) return Object.values(value).flatMap((item) => template(item, what, field));
	if (typeof value !== "string") return [];
	return placeholders(value).flatMap((inner) => {
		const problem = checkExpression(inner);
		return problem ? [{ field, message: `A placeholder in its ${what} ({{ ${[...inner].slice(0, 60).join("")} }}) cannot be used: ${problem}` }] : [];
	});
}

function agent(node: Node, _graph: Graph, known: Known): Found[] {
	const { agent: name, prompt } = node.config;
	const found: Found[] = [];
	if (!truthy(name)) found.push({ field: "agent", message: "It does not say which agent to run; choose an agent." });
	else if (known.agents && !known.agents.has(pyStr(name))) found.push({ field: "agent", message: `The agent ${pyRepr(name)} does not exist (or you cannot use it); choose an existing agent.` });
	if (typeof prompt !== "string" || !pyStrip(prompt)) found.push({ field: "prompt", message: "It has no prompt; write what the agent should do, e.g. Score the lead {{ trigger.lead }}." });
	return [...found, ...template(prompt, "prompt", "prompt")];
}

/** checks.py `approved_right_before`: every way into the step is an approval's approved path. */
function approvedRightBefore(graph: Graph, id: string): boolean {
	const into = graph.edges.filter((edge) => edge.target === id);
	return into.length > 0 && into.every((edge) => graph.nodes.get(edge.source)?.type === "human.approval" && edge.type !== "on_failure" && (edge.outcome === null || edge.outcome === "approved"));
}

function tool(node: Node, graph: Graph, known: Known): Found[] {
	const name = node.config.tool;
	const args = "arguments" in node.config ? node.config.arguments : {};
	const found: Found[] = [];
	const entry = known.tools?.get(pyStr(name));
	if (!truthy(name)) found.push({ field: "tool", message: "It does not say which tool to call; choose a tool." });
	else if (known.tools && !entry) found.push({ field: "tool", message: `The tool ${pyRepr(name)} does not exist; choose an existing tool.` });
	else if (entry?.asksFirst && !approvedRightBefore(graph, node.id)) {
		const message = `The tool ${pyRepr(name)} is marked to ask a person before it runs; put a Human approval step right before this step, with only its approved path leading here, so a person decides each call.`;
		found.push({ field: "tool", message });
	}
	if (!isRecord(args)) found.push({ field: "arguments", message: 'Its arguments must be an object of names and values, e.g. {"customer": "{{ trigger.customer }}"}.' });
	return [...found, ...template(args, "arguments", "arguments")];
}

function router(node: Node, graph: Graph): Found[] {
	if (!outgoing(graph, node.id).some((edge) => edge.type !== "on_failure")) return [{ message: "It has no edges to choose from; connect it to the steps the model may choose between." }];
	return template(node.config.prompt, "prompt", "prompt");
}

const hasNames = (value: unknown) => Array.isArray(value) && value.some((item) => typeof item === "string" && pyStrip(item));

function approval(node: Node): Found[] {
	const config = node.config;
	const kind = text(truthy(config.approval_type) ? config.approval_type : "").toLowerCase();
	const found: Found[] = [];
	if (USER_TYPES.includes(kind)) {
		if (!hasNames(config.users)) found.push({ field: "users", message: "It is approved by users but lists none; add the users who may approve." });
	} else if (ROLE_TYPES.includes(kind)) {
		if (!hasNames(config.roles)) found.push({ field: "roles", message: "It is approved by a role but lists none; add the roles whose members may approve." });
	} else found.push({ field: "approval_type", message: 'Say who approves: set approval_type to "user" (with users) or "role" (with roles).' });
	const timeout = config.timeout_seconds;
	if (timeout !== undefined && timeout !== null && timeout !== "" && !(typeof timeout === "number" && timeout > 0)) {
		found.push({ field: "timeout_seconds", message: "Its timeout must be a number of seconds above 0, or left empty." });
	}
	return [...found, ...template(config.message, "message", "message")];
}

/** Python's urlsplit, as far as the check needs it: the scheme and the host part. */
function schemeAndHost(url: string): [string, string] {
	const clean = url.replace(/^[\x00-\x20]+/, "").replace(/[\t\r\n]/g, "");
	const colon = clean.indexOf(":");
	const hasScheme = colon > 0 && /^[A-Za-z][A-Za-z0-9+\-.]*$/.test(clean.slice(0, colon));
	const rest = hasScheme ? clean.slice(colon + 1) : clean;
	const host = rest.startsWith("//") ? (rest.slice(2).match(/^[^/?#]*/) as RegExpMatchArray)[0] : "";
	return [hasScheme ? clean.slice(0, colon).toLowerCase() : "", host];
}

function http(node: Node): Found[] {
	const config = node.config;
	const found: Found[] = [];
	if (!HTTP_METHODS.includes(text(truthy(config.method) ? config.method : "").toUpperCase())) found.push({ field: "method", message: `Its method must be one of ${HTTP_METHODS.join(", ")}.` });
	const url = config.url;
	const [scheme, host] = typeof url === "string" ? schemeAndHost(pyStrip(url)) : ["", ""];
	if (!["http", "https"].includes(scheme) || !pyStrip(host)) found.push({ field: "url", message: "Its URL must be a full web address starting with http:// or https://, e.g. https://api.example.com/leads." });
	const headers = "headers" in config ? config.headers : {};
	if (!isRecord(headers)) found.push({ field: "headers", message: 'Its headers must be an object of names and values, e.g. {"Accept": "application/json"}.' });
	return [...found, ...template(url, "URL", "url"), ...template(headers, "headers", "headers"), ...template(config.body, "body", "body")];
}

function transform(node: Node): Found[] {
	const config = node.config;
	const mode = config.mode;
	if (typeof mode !== "string" || !TRANSFORM_MODES.includes(mode)) return [{ field: "mode", message: `Its mode must be copy, map or template (it is ${pyRepr(mode)}).` }];
	if (mode === "template") {
		if (typeof config.template !== "string") return [{ field: "template", message: "A template transform needs a template and the key to write it to." }];
		if (typeof config.key !== "string" || !config.key) return [{ field: "key", message: "A template transform needs a template and the key to write it to." }];
		return template(config.template, "template", "template");
	}
	const mappings = config.mappings;
	if (!isRecord(mappings) || !truthy(mappings)) return [{ field: "mappings", message: `A ${mode} transform needs mappings: an object of new keys and sources, e.g. {"email": "trigger.lead.email"}.` }];
	return Object.entries(mappings).flatMap(([key, source]) => {
		const problems = expression(source, `source for ${pyRepr(key)}`, "trigger.lead.email", "mappings");
		if (!problems.length && mode === "copy" && !isPath(source as string)) {
			return [{ field: "mappings", message: `The source for ${pyRepr(key)} must be a path such as trigger.lead.email; use mode map for expressions.` }];
		}
		return problems;
	});
}

/** control.py `branch_target`: a loop's body or done step, named in its settings, else by the edge labelled so. */
function branchTarget(graph: Graph, node: Node, branch: string): string | null {
	if (truthy(node.config[branch])) return pyStr(node.config[branch]);
	return outgoing(graph, node.id).find((edge) => edge.outcome === branch)?.target ?? null;
}

function loop(node: Node, graph: Graph): Found[] {
	const config = node.config;
	const found = expression(config.items, "list to go through (items)", "trigger.leads", "items");
	const limit = config.max_iterations;
	if (!(isWhole(limit) && limit > 0 && limit <= MAX_ITERATIONS)) found.push({ field: "max_iterations", message: `Its max_iterations must be a whole number from 1 to ${grouped(MAX_ITERATIONS)}.` });
	for (const branch of ["body", "done"]) {
		const set = truthy(config[branch]);
		const target = branchTarget(graph, node, branch);
		if (target === null && branch === "body") found.push({ message: "It has no body step; connect an edge labelled body (or set body) to the first step to repeat." });
		else if (target !== null && !graph.nodes.has(target)) found.push({ ...(set ? { field: branch } : {}), message: `Its ${branch} step ${pyRepr(target)} does not exist; choose a node of this flow.` });
	}
	return found;
}

function condition(node: Node): Found[] {
	return expression(node.config.expression, "expression", "trigger.lead.score > 50", "expression");
}

const CHECKS = new Map<string, (node: Node, graph: Graph, known: Known) => Found[]>([
	["agent.run", agent],
	["tool.call", tool],
	["router.llm", router],
	["human.approval", approval],
	["http_request", http],
	["condition", condition],
	["transform", transform],
	["loop", loop],
]);

/** What a step may report, as [ok, branch, fallback] for edges.py `choose` (step.py `REPORTS`). */
type Report = [ok: boolean, branch: string | null, fallback: boolean];
const SUCCESS: Report[] = [[true, null, true]];
const REPORTS = new Map<string, Report[]>([
	["condition", [[true, "true", true], [false, "false", true]]],
	["human.approval", [[true, "approved", true], [true, "rejected", false], [true, "timeout", false]]],
]);
const SELF_ROUTED = ["loop", "human.approval", "router.llm", "end"];

/** edges.py `possible`: every edge `choose` may take, whatever the run's data. */
function possible(edges: Edge[], [ok, branch, fallback]: Report): Edge[] {
	const found: Edge[] = [];
	if (branch !== null) {
		for (const edge of edges.filter((edge) => edge.outcome === branch)) {
			found.push(edge);
			if (edge.type !== "expression") return found;
		}
		if (!fallback) return found;
	}
	for (const edge of edges.filter((edge) => edge.outcome === null)) {
		if (ok && edge.type === "expression") found.push(edge);
		else if (ok ? edge.type === "always" || edge.type === "on_success" : edge.type === "on_failure") return [...found, edge];
	}
	return found;
}

/** A step's ways on: the steps a run may go to next, and whether it may end there. */
type Ways = { to: Set<string>; ends: boolean };

/** step.py `_onward`: no edges end the run; the orchestrator may take any candidate; else what `choose` may take. */
function routed(graph: Graph, node: Node, reports: Report[]): Ways {
	const edges = outgoing(graph, node.id);
	if (!edges.length) return { to: new Set(), ends: true };
	const candidates = edges.filter((edge) => edge.type !== "on_failure");
	const taken = graph.agentic && !SELF_ROUTED.includes(node.type) && candidates.length > 1 ? candidates : reports.flatMap((report) => possible(edges, report));
	return { to: new Set(taken.map((edge) => edge.target)), ends: false };
}

/** step.py `onward`: where a run may go after a step, whatever its data. */
function onward(graph: Graph, node: Node): Ways {
	const edges = outgoing(graph, node.id);
	let ways: Ways;
	if (node.type === "loop") {
		const done = branchTarget(graph, node, "done");
		const body = branchTarget(graph, node, "body");
		ways = { to: new Set([body, done].filter((id): id is string => id !== null)), ends: done === null };
	} else if (node.type === "end") ways = { to: new Set(), ends: true };
	else if (node.type === "router.llm") ways = { to: new Set(edges.filter((edge) => edge.type !== "on_failure").map((edge) => edge.target)), ends: false };
	else ways = routed(graph, node, REPORTS.get(node.type) ?? SUCCESS);
	if (!("default" in node.config)) return { to: new Set([...ways.to, ...possible(edges, [false, null, true]).map((edge) => edge.target)]), ends: ways.ends };
	if (node.type === "loop") return ways;
	const more = routed(graph, node, SUCCESS);
	return { to: new Set([...ways.to, ...more.to]), ends: ways.ends || more.ends };
}

/** circles.py `components`: the strongly connected components of `ways` (Kosaraju's). */
function components(ids: string[], ways: Map<string, string[]>): string[][] {
	const finished: string[] = [];
	const seen = new Set<string>();
	for (const root of ids) {
		if (seen.has(root)) continue;
		seen.add(root);
		const stack = [{ id: root, next: 0 }];
		while (stack.length) {
			const top = stack[stack.length - 1] as { id: string; next: number };
			const out = ways.get(top.id) ?? [];
			while (top.next < out.length && seen.has(out[top.next] as string)) top.next++;
			const following = out[top.next];
			if (following === undefined) {
				stack.pop();
				finished.push(top.id);
			} else {
				seen.add(following);
				stack.push({ id: following, next: 0 });
			}
		}
	}
	const back = new Map<string, string[]>(ids.map((id) => [id, []]));
	for (const id of ids) for (const to of ways.get(id) ?? []) back.get(to)?.push(id);
	const groups: string[][] = [];
	const placed = new Set<string>();
	for (const root of finished.reverse()) {
		if (placed.has(root)) continue;
		placed.add(root);
		const group: string[] = [];
		const pending = [root];
		while (pending.length) {
			const id = pending.pop() as string;
			group.push(id);
			for (const source of back.get(id) ?? []) {
				if (!placed.has(source)) {
					placed.add(source);
					pending.push(source);
				}
			}
		}
		groups.push(group);
	}
	return groups;
}

/** step.py `name_of`: a step as the server's messages name it. */
function nameOf(node: Node): string {
	return node.label !== node.id ? `${pyRepr(node.label)} (${node.id})` : pyRepr(node.id);
}

/** circles.py `closed` and validate.py `_circle`: each circle a run can never leave, on its first step in outline order. */
function circleProblems(graph: Graph): Problem[] {
	const ids = [...graph.nodes.keys()];
	const ways = new Map(ids.map((id) => [id, onward(graph, graph.nodes.get(id) as Node)]));
	const way = (id: string) => ways.get(id) as Ways;
	const place = new Map(outlineOrder(graph.entry, ids, (id) => outgoing(graph, id).map((edge) => edge.target)).map((id, index) => [id, index]));
	const earlier = (a: string, b: string) => (place.get(a) as number) - (place.get(b) as number);
	const inside = new Map(ids.map((id) => [id, [...way(id).to].filter((to) => graph.nodes.has(to))]));
	const closed = components(ids, inside).filter((group) => {
		const members = new Set(group);
		const circle = group.length > 1 || way(group[0] as string).to.has(group[0] as string);
		return circle && group.every((id) => !way(id).ends && [...way(id).to].every((to) => members.has(to)));
	});
	return closed
		.map((group) => group.sort(earlier))
		.sort((a, b) => earlier(a[0] as string, b[0] as string))
		.map((group) => {
			const steps = group.map((id) => nameOf(graph.nodes.get(id) as Node)).join(", ");
			const message =
				group.length === 1
					? `This step leads back to itself and a run can never leave it: ${steps}. Give that edge a condition, add an edge to another step with a higher priority than the edges that always apply, or repeat it with a loop step.`
					: `These steps go round in a circle that a run can never leave: ${steps}. Give one of the edges between them a condition, add an edge out of the circle with a higher priority than the edges that always apply, or repeat them with a loop step.`;
			return { nodeId: group[0] as string, message };
		});
}

// What a flow needs before it can be activated (huf/ai/flow/readiness.py, which also checks who
// exists, who holds a role and what the flow's runner may do, as only the site knows).
const NO_SECRET = "It needs a secret before the flow can be activated: other systems send it with each request, and without one no request is accepted.";
const GUEST_USER = "Guest (someone who has not signed in) cannot decide; choose people who sign in.";
const GUEST_ROLE = "The role Guest cannot decide (it stands for people who have not signed in); choose another role.";
const NOBODY = "Nobody listed can decide, so a run would wait here for ever; choose people who can sign in.";
const NOBODY_WITH_ROLE = "Nobody who can sign in has any of these roles, so a run would wait here for ever; choose a role people hold.";

const namesIn = (value: unknown) => (Array.isArray(value) ? value.filter((item): item is string => typeof item === "string" && pyStrip(item) !== "").map(pyStrip) : []);

function readiness(node: Node): Found[] {
	const config = node.config;
	if (node.type === "trigger.webhook") return typeof config.secret === "string" && pyStrip(config.secret) ? [] : [{ field: "secret", message: NO_SECRET }];
	if (node.type !== "human.approval") return [];
	const kind = text(truthy(config.approval_type) ? config.approval_type : "").toLowerCase();
	const [names, field, guest, nobody] = USER_TYPES.includes(kind) ? [namesIn(config.users), "users", GUEST_USER, NOBODY] : ROLE_TYPES.includes(kind) ? [namesIn(config.roles), "roles", GUEST_ROLE, NOBODY_WITH_ROLE] : [[], "", "", ""];
	if (!names.includes("Guest")) return [];
	return [{ field, message: guest }, ...(names.every((name) => name === "Guest") ? [{ field, message: nobody }] : [])];
}

/** Every problem the server would report on save (but the flow's id), in the server's order; then
 * what it reports when the flow is activated. */
export function checkFlow(definition: Definition, known: Known): Problem[] {
	const graph = parse(definition);
	const problems = [...flowProblems(definition, graph), ...graph.edges.flatMap((edge) => edgeProblems(graph, edge))];
	for (const node of graph.nodes.values()) {
		const rule = CHECKS.get(node.type);
		if (rule) problems.push(...rule(node, graph, known).map((found) => ({ nodeId: node.id, ...found })));
	}
	const ready = [...graph.nodes.values()].flatMap((node) => readiness(node).map((found) => ({ nodeId: node.id, ...found })));
	return [...problems, ...circleProblems(graph), ...ready];
}

/** A step's own problems for its settings panel: by setting, and the rest. Problems of the
 * connections leaving it (those with an edgeId) are left to the connection's panel. */
export function problemsFor(problems: Problem[], nodeId: string): { fields: Record<string, string[]>; general: string[] } {
	const found: { fields: Record<string, string[]>; general: string[] } = { fields: {}, general: [] };
	for (const problem of problems) {
		if (problem.nodeId !== nodeId || problem.edgeId !== undefined) continue;
		if (problem.field) (found.fields[problem.field] ??= []).push(problem.message);
		else found.general.push(problem.message);
	}
	return found;
}
