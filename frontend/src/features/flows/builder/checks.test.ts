// The builder's flow check against the server's: the messages below are mirrored from the server
// (huf/ai/engine/flow/validate.py and checks.py), word for word, so a server wording change shows
// up here as a failing test.
import { describe, expect, it } from "vitest";
import { checkFlow, problemsFor, type Known, type Problem } from "./checks";
import { fromDefinition, toDefinition } from "./convert";
import type { Definition, RawEdge, RawNode } from "../rules";

const node = (id: string, type: string, config: Record<string, unknown> = {}): RawNode => ({ id, type, data: { label: id, config } });
const edge = (source: string, target: string, type = "always", extra: Record<string, unknown> = {}): RawEdge => ({ id: `${source}-${target}`, source, target, type, ...extra });

const KNOWN: Known = { agents: new Set(["Scorer"]), tools: new Map([["create_lead", { asksFirst: false }], ["delete_lead", { asksFirst: true }]]) };
const LOADING: Known = { agents: null, tools: null };

/** The server test's good flow (tests/engine/flow/test_flow_validate.py): one step of every kind that has settings. */
const GOOD: Definition = {
	id: "flow",
	nodes: [
		node("hook", "trigger.webhook", { secret: "********" }),
		node("score", "agent.run", { agent: "Scorer", prompt: "Score {{ trigger.lead }}" }),
		node("save", "tool.call", { tool: "create_lead", arguments: { lead: "{{ trigger.lead }}" } }),
		node("route", "router.llm", { prompt: "Pick" }),
		node("ok", "human.approval", { approval_type: "role", roles: ["Sales Manager"], timeout_seconds: 60 }),
		node("call", "http_request", { method: "post", url: "https://api.example.com/{{ trigger.id }}", headers: { "X-Key": "k" }, body: { a: "{{ trigger }}" } }),
		node("hot", "condition", { expression: "nodes.score > 50" }),
		node("shape", "transform", { mode: "copy", mappings: { email: "trigger.lead['email']" } }),
		node("each", "loop", { items: "trigger.items", max_iterations: 10 }),
		node("end", "end"),
	],
	edges: [
		edge("hook", "score"),
		edge("score", "save", "on_success"),
		edge("save", "route"),
		edge("route", "ok"),
		edge("ok", "call", "always", { meta: { outcome: "approved" } }),
		edge("call", "hot"),
		edge("hot", "shape", "expression", { condition: "trigger.x == 1" }),
		edge("shape", "each"),
		edge("each", "end", "always", { sourceHandle: "body" }),
		edge("end", "each", "on_failure"),
	],
};

function changed(change: (definition: Definition & { nodes: RawNode[]; edges: RawEdge[] }) => void): Definition {
	const copy = structuredClone(GOOD) as Definition & { nodes: RawNode[]; edges: RawEdge[] };
	change(copy);
	return copy;
}

function withConfig(id: string, config: Record<string, unknown>): Definition {
	return changed((definition) => {
		const found = definition.nodes.find((item) => item.id === id) as RawNode;
		found.data = { label: id, config };
	});
}

describe("checkFlow", () => {
	it("finds nothing wrong with a good flow, loaded or not", () => {
		expect(checkFlow(GOOD, KNOWN)).toEqual([]);
		expect(checkFlow(GOOD, LOADING)).toEqual([]);
	});

	it("says an empty flow has no steps (a draft may still be saved: the caller decides)", () => {
		expect(checkFlow({ id: "flow", nodes: [], edges: [] }, KNOWN)).toEqual([{ nodeId: null, message: "The flow has no steps; add at least one node." }]);
		expect(checkFlow({ id: "flow" }, KNOWN)).toEqual([{ nodeId: null, message: "The flow has no steps; add at least one node." }]);
	});

	it.each<[string, (definition: Definition & { nodes: RawNode[]; edges: RawEdge[] }) => void, Problem]>([
		["a repeated id", (d) => d.nodes.push(node("end", "end")), { nodeId: "end", message: "2 steps share the id 'end'; give each node its own id." }],
		["a step without id", (d) => d.nodes.push(node("", "end")), { nodeId: null, message: "A step has no id; give every node a unique id." }],
		["an unknown step type", (d) => d.nodes.push(node("x", "code")), { nodeId: "x", message: "The step type 'code' is not available; use one of: trigger.webhook, trigger.schedule, trigger.doc-event, agent.run, tool.call, router.llm, human.approval, http_request, condition, transform, loop, end." }],
		["a missing entry", (d) => (d.entry = "nowhere"), { nodeId: null, message: "The entry step 'nowhere' does not exist; set entry to one of the node ids." }],
		["max_hops of 0", (d) => (d.max_hops = 0), { nodeId: null, message: "max_hops must be a whole number above 0 (the most steps a run may take)." }],
		["max_hops of 1.5", (d) => (d.max_hops = 1.5), { nodeId: null, message: "max_hops must be a whole number above 0 (the most steps a run may take)." }],
		["an edge to nowhere", (d) => d.edges.push({ ...edge("end", "ghost"), id: "e-x" }), { nodeId: "end", edgeId: "e-x", message: "Edge e-x leads to 'ghost', which is not a step in this flow; connect it to an existing node." }],
		["an edge from nowhere", (d) => d.edges.push({ ...edge("ghost", "end"), id: "e-y" }), { nodeId: null, edgeId: "e-y", message: "Edge e-y starts at 'ghost', which is not a step in this flow; connect it to an existing node." }],
		["an unknown edge type", (d) => d.edges.push({ ...edge("hot", "end", "sometimes"), id: "e-t" }), { nodeId: "hot", edgeId: "e-t", field: "type", message: "Edge e-t has the type 'sometimes'; use one of: always, on_success, on_failure, expression." }],
		["an expression edge without condition", (d) => d.edges.push({ ...edge("hot", "end", "expression", { condition: "  " }), id: "e-z" }), { nodeId: "hot", edgeId: "e-z", field: "condition", message: "Edge e-z is an expression edge without a condition; write one, such as score > 50." }],
		["a condition that cannot be used", (d) => d.edges.push({ ...edge("hot", "end", "expression", { condition: "x.__class__" }), id: "e-c" }), { nodeId: "hot", edgeId: "e-c", field: "condition", message: "The condition of edge e-c cannot be used: The name '__class__' is not allowed; names cannot start with '_'." }],
		["an edge without id", (d) => d.edges.push({ source: "hot", target: "end", type: "expression" }), { nodeId: "hot", edgeId: "edge-11", field: "condition", message: "Edge edge-11 is an expression edge without a condition; write one, such as score > 50." }],
	])("reports %s as the server does", (_name, change, problem) => {
		expect(checkFlow(changed(change), KNOWN)).toEqual([problem]);
	});

	it.each<[string, Record<string, unknown>, string | undefined, string]>([
		["score", { prompt: "x" }, "agent", "It does not say which agent to run; choose an agent."],
		["score", { agent: "Nobody", prompt: "x" }, "agent", "The agent 'Nobody' does not exist (or you cannot use it); choose an existing agent."],
		["score", { agent: "Scorer" }, "prompt", "It has no prompt; write what the agent should do, e.g. Score the lead {{ trigger.lead }}."],
		["score", { agent: "Scorer", prompt: "Hi {{ __import__('os') }}" }, "prompt", "A placeholder in its prompt ({{ __import__('os') }}) cannot be used: Expressions cannot use function calls; use values from the flow, comparisons and arithmetic only."],
		["save", { arguments: {} }, "tool", "It does not say which tool to call; choose a tool."],
		["save", { tool: "drop_all" }, "tool", "The tool 'drop_all' does not exist; choose an existing tool."],
		["save", { tool: "create_lead", arguments: ["a"] }, "arguments", 'Its arguments must be an object of names and values, e.g. {"customer": "{{ trigger.customer }}"}.'],
		["save", { tool: "create_lead", arguments: { a: ["{{ x > }}"] } }, "arguments", "A placeholder in its arguments ({{ x > }}) cannot be used: The expression 'x >' is not valid: invalid syntax."],
		["route", { prompt: "{{ {1, 2} }}" }, "prompt", "A placeholder in its prompt ({{ {1, 2} }}) cannot be used: Expressions cannot use sets; use values from the flow, comparisons and arithmetic only."],
		["ok", { approval_type: "users", users: [" "] }, "users", "It is approved by users but lists none; add the users who may approve."],
		["ok", { approval_type: "Roles" }, "roles", "It is approved by a role but lists none; add the roles whose members may approve."],
		["ok", { users: ["a@x.com"] }, "approval_type", 'Say who approves: set approval_type to "user" (with users) or "role" (with roles).'],
		["ok", { approval_type: "user", users: ["a@x.com"], timeout_seconds: -1 }, "timeout_seconds", "Its timeout must be a number of seconds above 0, or left empty."],
		["ok", { approval_type: "user", users: ["a@x.com"], message: "Approve {{ lead }} for {{ _x }}?" }, "message", "A placeholder in its message ({{ _x }}) cannot be used: The name '_x' is not allowed; names cannot start with '_'."],
		["call", { method: "FETCH", url: "https://a.example" }, "method", "Its method must be one of GET, POST, PUT, PATCH, DELETE, HEAD."],
		["call", { method: "GET", url: "ftp://a.example" }, "url", "Its URL must be a full web address starting with http:// or https://, e.g. https://api.example.com/leads."],
		["call", { method: "GET", url: "{{ trigger.url }}" }, "url", "Its URL must be a full web address starting with http:// or https://, e.g. https://api.example.com/leads."],
		["call", { method: "GET", url: "https://a.example", headers: "x" }, "headers", 'Its headers must be an object of names and values, e.g. {"Accept": "application/json"}.'],
		["call", { method: "GET", url: "https://a.example", body: { b: "{{ }}" } }, "body", "A placeholder in its body ({{  }}) cannot be used: The expression is empty; write one such as score > 50."],
		["hot", {}, "expression", "It needs expression, e.g. trigger.lead.score > 50."],
		["hot", { expression: "score >" }, "expression", "Its expression cannot be used: The expression 'score >' is not valid: invalid syntax."],
		["hot", { expression: "[x for x in y]" }, "expression", "Its expression cannot be used: Expressions cannot use comprehensions; use values from the flow, comparisons and arithmetic only."],
		["shape", { mode: "merge" }, "mode", "Its mode must be copy, map or template (it is 'merge')."],
		["shape", {}, "mode", "Its mode must be copy, map or template (it is None)."],
		["shape", { mode: "copy", mappings: { e: "trigger.email + 'x'" } }, "mappings", "The source for 'e' must be a path such as trigger.lead.email; use mode map for expressions."],
		["shape", { mode: "map", mappings: { "it's": "" } }, "mappings", `It needs source for "it's", e.g. trigger.lead.email.`],
		["shape", { mode: "map", mappings: {} }, "mappings", 'A map transform needs mappings: an object of new keys and sources, e.g. {"email": "trigger.lead.email"}.'],
		["shape", { mode: "template", template: "x" }, "key", "A template transform needs a template and the key to write it to."],
		["shape", { mode: "template", key: "text" }, "template", "A template transform needs a template and the key to write it to."],
		["each", { max_iterations: 10 }, "items", "It needs list to go through (items), e.g. trigger.leads."],
		["each", { items: "trigger.items" }, "max_iterations", "Its max_iterations must be a whole number from 1 to 10,000."],
		["each", { items: "trigger.items", max_iterations: 10_001 }, "max_iterations", "Its max_iterations must be a whole number from 1 to 10,000."],
		["each", { items: "trigger.items", max_iterations: 10, body: "ghost" }, "body", "Its body step 'ghost' does not exist; choose a node of this flow."],
	])("checks the settings of %s: %j", (id, config, field, message) => {
		expect(checkFlow(withConfig(id, config), KNOWN)).toEqual([{ nodeId: id, field, message }]);
	});

	it("reports a router without candidates and a loop without a body, with no setting to point at", () => {
		const definition: Definition = { id: "f", nodes: [node("r", "router.llm"), node("l", "loop", { items: "x", max_iterations: 3 }), node("f", "end")], edges: [edge("r", "f", "on_failure")] };
		expect(checkFlow(definition, KNOWN)).toEqual([
			{ nodeId: "r", message: "It has no edges to choose from; connect it to the steps the model may choose between." },
			{ nodeId: "l", message: "It has no body step; connect an edge labelled body (or set body) to the first step to repeat." },
		]);
	});

	it("finds a loop's done step by its labelled edge, highest priority first", () => {
		const flow = (edges: RawEdge[]): Definition => ({ id: "f", nodes: [node("l", "loop", { items: "x", max_iterations: 3, body: "f" }), node("f", "end")], edges });
		expect(checkFlow(flow([edge("l", "f", "always", { sourceHandle: "done" })]), KNOWN)).toEqual([]);
		const ghost = { ...edge("l", "ghost", "always", { meta: { outcome: "DONE" }, priority: "2" }), id: "g" };
		expect(checkFlow(flow([edge("l", "f", "always", { sourceHandle: "done" }), ghost]), KNOWN).map((problem) => problem.message)).toEqual([
			"Edge g leads to 'ghost', which is not a step in this flow; connect it to an existing node.",
			"Its done step 'ghost' does not exist; choose a node of this flow.",
		]);
	});

	it("lets a tool that asks first run only right after an approval's approved path", () => {
		const asks = (into: RawEdge[], known = KNOWN) =>
			checkFlow({ id: "f", nodes: [node("hook", "trigger.webhook", { secret: "s3cret" }), node("ask", "human.approval", { approval_type: "users", users: ["boss@example.com"] }), node("drop", "tool.call", { tool: "delete_lead", arguments: {} })], edges: [edge("hook", "ask"), ...into] }, known);
		expect(asks([edge("ask", "drop", "always", { meta: { outcome: "approved" } })])).toEqual([]);
		expect(asks([edge("ask", "drop", "on_success")])).toEqual([]);
		const message = "The tool 'delete_lead' is marked to ask a person before it runs; put a Human approval step right before this step, with only its approved path leading here, so a person decides each call.";
		for (const into of [[edge("hook", "drop")], [edge("ask", "drop", "always", { sourceHandle: "rejected" })], [edge("ask", "drop", "on_failure")], [edge("ask", "drop", "always", { sourceHandle: "approved" }), edge("hook", "drop")], []]) {
			expect(asks(into)).toEqual([{ nodeId: "drop", field: "tool", message }]);
		}
		expect(asks([edge("hook", "drop")], LOADING)).toEqual([]); // tools not loaded yet: not judged
	});

	it("says what would stop a flow once it is active: a web request without a secret, Guest deciding an approval", () => {
		const noSecret = "It needs a secret before the flow can be activated: other systems send it with each request, and without one no request is accepted.";
		for (const secret of [undefined, "", "  "]) expect(checkFlow(withConfig("hook", secret === undefined ? {} : { secret }), KNOWN)).toEqual([{ nodeId: "hook", field: "secret", message: noSecret }]);
		const guestUser = "Guest (someone who has not signed in) cannot decide; choose people who sign in.";
		const nobody = "Nobody listed can decide, so a run would wait here for ever; choose people who can sign in.";
		expect(checkFlow(withConfig("ok", { approval_type: "user", users: ["Guest"] }), KNOWN)).toEqual([{ nodeId: "ok", field: "users", message: guestUser }, { nodeId: "ok", field: "users", message: nobody }]);
		expect(checkFlow(withConfig("ok", { approval_type: "users", users: ["Guest", "boss@example.com"] }), KNOWN)).toEqual([{ nodeId: "ok", field: "users", message: guestUser }]);
		expect(checkFlow(withConfig("ok", { approval_type: "role", roles: ["Guest"] }), KNOWN)).toEqual([
			{ nodeId: "ok", field: "roles", message: "The role Guest cannot decide (it stands for people who have not signed in); choose another role." },
			{ nodeId: "ok", field: "roles", message: "Nobody who can sign in has any of these roles, so a run would wait here for ever; choose a role people hold." },
		]);
	});

	it("does not judge agents and tools before they are loaded", () => {
		expect(checkFlow(withConfig("score", { agent: "Nobody", prompt: "x" }), LOADING)).toEqual([]);
		expect(checkFlow(withConfig("save", { tool: "drop_all" }), LOADING)).toEqual([]);
		expect(checkFlow(withConfig("save", { arguments: {} }), LOADING)).toEqual([{ nodeId: "save", field: "tool", message: "It does not say which tool to call; choose a tool." }]);
	});

	it("reads the canvas's saved shape, where empty settings are left out", () => {
		const canvas = fromDefinition(GOOD);
		expect(checkFlow(toDefinition(canvas), KNOWN)).toEqual([]);
		const score = canvas.nodes.find((item) => item.id === "score");
		if (score) score.data.config.prompt = "";
		expect(checkFlow(toDefinition(canvas), KNOWN)).toEqual([{ nodeId: "score", field: "prompt", message: "It has no prompt; write what the agent should do, e.g. Score the lead {{ trigger.lead }}." }]);
	});
});

describe("circles a run can never leave", () => {
	// The server's cases (tests/engine/flow/test_flow_validate.py), with its words.
	const step = (id: string, label = id.toUpperCase()): RawNode => ({ id, type: "transform", data: { label, config: { mode: "template", template: "x", key: id } } });
	const labelled = (id: string, type: string, label: string, config: Record<string, unknown> = {}): RawNode => ({ id, type, data: { label, config } });
	const closed = (steps: string) =>
		`These steps go round in a circle that a run can never leave: ${steps}. Give one of the edges between them a condition, add an edge out of the circle with a higher priority than the edges that always apply, or repeat them with a loop step.`;
	const itself = (steps: string) =>
		`This step leads back to itself and a run can never leave it: ${steps}. Give that edge a condition, add an edge to another step with a higher priority than the edges that always apply, or repeat it with a loop step.`;
	const ask = { approval_type: "user", users: ["boss@example.com"] };
	const each = labelled("each", "loop", "Each", { items: "trigger.items", max_iterations: 5 });
	const hot = labelled("hot", "condition", "Hot?", { expression: "trigger.score > 5" });
	const out = node("out", "end");
	const circles = (nodes: RawNode[], edges: RawEdge[], extra: Record<string, unknown> = {}) =>
		checkFlow({ id: "flow", nodes, edges, ...extra }, KNOWN).filter((problem) => problem.message.includes("circle") || problem.message.includes("back to itself"));

	it.each<[string, RawNode[], RawEdge[], Problem[]]>([
		["itself", [step("a")], [edge("a", "a")], [{ nodeId: "a", message: itself("'A' (a)") }]],
		["two steps", [step("s"), step("a"), step("b")], [edge("s", "a"), edge("a", "b", "on_success"), edge("b", "a")], [{ nodeId: "a", message: closed("'A' (a), 'B' (b)") }]],
		["three steps", [step("s"), step("c"), step("b"), step("a", "a")], [edge("s", "a"), edge("a", "b"), edge("b", "c"), edge("c", "a")], [{ nodeId: "a", message: closed("'a', 'B' (b), 'C' (c)") }]],
		["way out shadowed", [step("a"), step("b"), out], [edge("a", "out", "always", { priority: 0 }), edge("a", "b", "always", { priority: 5 }), edge("b", "a")], [{ nodeId: "a", message: closed("'A' (a), 'B' (b)") }]],
		["condition shadowed", [step("a"), out], [edge("a", "a"), edge("a", "out", "expression", { condition: "trigger.done" })], [{ nodeId: "a", message: itself("'A' (a)") }]],
		[
			"loop without a way out",
			[each, step("a"), step("b")],
			[edge("each", "a", "always", { sourceHandle: "body" }), edge("each", "b", "always", { sourceHandle: "done" }), edge("a", "each"), edge("b", "each")],
			[{ nodeId: "each", message: closed("'Each' (each), 'A' (a), 'B' (b)") }],
		],
		[
			"approval both ways",
			[labelled("ask", "human.approval", "Ask", ask), step("fix")],
			[edge("ask", "fix", "always", { meta: { outcome: "approved" } }), { ...edge("ask", "fix", "always", { meta: { outcome: "rejected" } }), id: "rejected" }, edge("fix", "ask")],
			[{ nodeId: "ask", message: closed("'Ask' (ask), 'FIX' (fix)") }],
		],
		[
			"default",
			[labelled("a", "transform", "A", { mode: "template", template: "x", key: "a", default: "y" }), step("b"), out],
			[edge("a", "b"), edge("a", "out", "on_failure"), edge("b", "a")],
			[{ nodeId: "a", message: closed("'A' (a), 'B' (b)") }],
		],
		[
			"condition both ways",
			[hot, step("a")],
			[edge("hot", "a", "always", { sourceHandle: "true" }), { ...edge("hot", "a", "always", { sourceHandle: "false" }), id: "hot-a-false" }, edge("a", "hot")],
			[{ nodeId: "hot", message: closed("'Hot?' (hot), 'A' (a)") }],
		],
		[
			"two circles",
			[step("a"), step("b"), step("c"), step("d")],
			[edge("c", "d"), edge("d", "c"), edge("a", "b", "always", { priority: 1 }), edge("b", "a"), edge("a", "c")],
			[
				{ nodeId: "a", message: closed("'A' (a), 'B' (b)") },
				{ nodeId: "c", message: closed("'C' (c), 'D' (d)") },
			],
		],
	])("refuses %s, naming its steps as the server does", (_name, nodes, edges, expected) => {
		expect(circles(nodes, edges)).toEqual(expected);
	});

	it.each<[string, RawNode[], RawEdge[]]>([
		["condition out", [step("a"), step("b"), out], [edge("a", "out", "expression", { condition: "trigger.done", priority: 1 }), edge("a", "b"), edge("b", "a")]],
		["condition out of itself", [step("a"), out], [edge("a", "out", "expression", { condition: "nodes.a == 'stop'" }), edge("a", "a")]],
		["loop done", [each, step("a"), out], [edge("each", "a", "always", { sourceHandle: "body" }), edge("a", "each"), edge("each", "out", "always", { sourceHandle: "done" })]],
		["loop without done", [each, step("a")], [edge("each", "a", "always", { sourceHandle: "body" }), edge("a", "each")]],
		["approval rejected", [labelled("ask", "human.approval", "Ask", ask), step("fix"), out], [edge("ask", "fix", "always", { meta: { outcome: "approved" } }), edge("fix", "ask"), edge("ask", "out", "always", { meta: { outcome: "rejected" } })]],
		["approval timeout", [labelled("ask", "human.approval", "Ask", { ...ask, timeout_seconds: 60 }), step("fix"), out], [edge("ask", "fix"), edge("fix", "ask"), edge("ask", "out", "always", { sourceHandle: "timeout" })]],
		["on_failure out", [step("a"), step("b"), out], [edge("a", "b"), edge("b", "a"), edge("b", "out", "on_failure")]],
		["condition false", [hot, step("a"), out], [edge("hot", "a", "always", { sourceHandle: "true" }), edge("a", "hot"), edge("hot", "out", "always", { sourceHandle: "false" })]],
		["condition fails", [hot, step("a"), out], [edge("hot", "a"), edge("a", "hot"), edge("hot", "out", "on_failure")]],
		["router", [labelled("pick", "router.llm", "Pick", { prompt: "Again?" }), step("a"), out], [edge("pick", "a"), edge("a", "pick"), edge("pick", "out", "always", { priority: -1 })]],
		["end", [step("a"), labelled("done", "end", "Done")], [edge("a", "done"), edge("done", "a", "on_failure")]],
		["missing step", [step("a"), step("b")], [edge("a", "b"), edge("b", "a"), edge("b", "ghost", "always", { priority: 1 })]],
		["shadowed way back", [step("a"), node("b", "end")], [edge("a", "b", "always", { priority: 1 }), edge("a", "a")]],
	])("allows %s: a condition or a choice can leave it", (_name, nodes, edges) => {
		expect(circles(nodes, edges)).toEqual([]);
	});

	it("lets the orchestrator take any way out in Agentic mode, but not after an approval", () => {
		const nodes = [step("a"), step("b"), out];
		const edges = [edge("a", "b", "always", { priority: 1 }), edge("a", "out"), edge("b", "a")];
		expect(circles(nodes, edges, { mode: "Agentic" })).toEqual([]);
		expect(circles(nodes, edges)).toEqual([{ nodeId: "a", message: closed("'A' (a), 'B' (b)") }]);
		const both = [
			edge("ask", "fix", "always", { meta: { outcome: "approved" } }),
			{ ...edge("ask", "fix", "always", { meta: { outcome: "rejected" } }), id: "ask-fix-r" },
			{ ...edge("ask", "out"), id: "never" },
			edge("fix", "ask"),
		];
		expect(circles([labelled("ask", "human.approval", "Ask", ask), step("fix"), out], both, { mode: "Agentic" }).map((problem) => problem.nodeId)).toEqual(["ask"]);
	});
});

describe("problemsFor", () => {
	it("groups a step's problems by setting and leaves its connections' problems out", () => {
		const problems: Problem[] = [
			{ nodeId: "a", field: "prompt", message: "one" },
			{ nodeId: "a", field: "prompt", message: "two" },
			{ nodeId: "a", field: "agent", message: "three" },
			{ nodeId: "a", message: "four" },
			{ nodeId: "a", edgeId: "e1", field: "condition", message: "five" },
			{ nodeId: "b", field: "prompt", message: "six" },
			{ nodeId: null, message: "seven" },
		];
		expect(problemsFor(problems, "a")).toEqual({ fields: { prompt: ["one", "two"], agent: ["three"] }, general: ["four"] });
		expect(problemsFor(problems, "c")).toEqual({ fields: {}, general: [] });
	});
});
