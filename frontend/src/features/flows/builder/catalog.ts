// The twelve kinds of step a flow is built from (engine/flow/graph.py NODE_TYPES), as the builder
// offers them: grouped as the reference groups them, each with a plain title, one line of what it
// does, the ways out of it (its outcomes) and the settings a new one starts with.
import type { Node, Edge } from "@xyflow/react";

export type NodeType =
	| "trigger.webhook"
	| "trigger.schedule"
	| "trigger.doc-event"
	| "agent.run"
	| "tool.call"
	| "router.llm"
	| "human.approval"
	| "http_request"
	| "condition"
	| "transform"
	| "loop"
	| "end";

export type EdgeType = "always" | "on_success" | "on_failure" | "expression";
export const EDGE_TYPES: EdgeType[] = ["always", "on_success", "on_failure", "expression"];

export type Config = Record<string, unknown>;
/** A step on the canvas: React Flow's node with our label and settings in `data`. */
export type StepData = { label: string; config: Config };
export type StepNode = Node<StepData, NodeType>;
/** A connection: React Flow's edge whose `type` is the edge type; `sourceHandle` is the outcome. */
export type LinkData = { condition?: string; priority?: number; label?: string };
export type LinkEdge = Edge<LinkData, EdgeType>;

export type Group = "Triggers" | "Actions" | "Utilities";
export const GROUPS: Group[] = ["Triggers", "Actions", "Utilities"];

export type Outcome = { id: string; label: string };

export type Kind = {
	type: NodeType;
	group: Group;
	title: string;
	/** One line a person who has never built a flow understands. */
	description: string;
	/** lucide icon name, resolved in the palette and on the node. */
	icon: "Webhook" | "Clock" | "FileText" | "Bot" | "Wrench" | "Split" | "UserCheck" | "Globe" | "GitBranch" | "Shuffle" | "Repeat" | "Flag";
	/** Named ways out (approved/rejected/timeout, true/false, body/done); empty means one plain way out. */
	outcomes: Outcome[];
	/** Whether anything can lead into it (triggers start a run) and out of it (end finishes it). */
	hasInput: boolean;
	hasOutput: boolean;
	defaults: () => Config;
};

export const KINDS: Kind[] = [
	{ type: "trigger.webhook", group: "Triggers", title: "Web request", description: "Starts when another system sends it a request.", icon: "Webhook", outcomes: [], hasInput: false, hasOutput: true, defaults: () => ({}) },
	{ type: "trigger.schedule", group: "Triggers", title: "Schedule", description: "Starts on a schedule you set up under Triggers.", icon: "Clock", outcomes: [], hasInput: false, hasOutput: true, defaults: () => ({}) },
	{ type: "trigger.doc-event", group: "Triggers", title: "Record change", description: "Starts when a record is created, changed or deleted.", icon: "FileText", outcomes: [], hasInput: false, hasOutput: true, defaults: () => ({}) },
	{ type: "agent.run", group: "Actions", title: "Ask an agent", description: "An agent reads your instructions and answers or acts.", icon: "Bot", outcomes: [], hasInput: true, hasOutput: true, defaults: () => ({ agent: "", prompt: "", output_format: "text" }) },
	{ type: "tool.call", group: "Actions", title: "Use a tool", description: "Runs one tool with the values you give it.", icon: "Wrench", outcomes: [], hasInput: true, hasOutput: true, defaults: () => ({ tool: "", arguments: {} }) },
	{ type: "router.llm", group: "Actions", title: "Let a model choose", description: "A model reads the situation and picks the next step.", icon: "Split", outcomes: [], hasInput: true, hasOutput: true, defaults: () => ({ prompt: "" }) },
	{
		type: "human.approval",
		group: "Actions",
		title: "Ask for approval",
		description: "Waits until a person approves or rejects.",
		icon: "UserCheck",
		outcomes: [
			{ id: "approved", label: "Approved" },
			{ id: "rejected", label: "Rejected" },
			{ id: "timeout", label: "No answer in time" },
		],
		hasInput: true,
		hasOutput: true,
		defaults: () => ({ approval_type: "user", users: [], roles: [], message: "" }),
	},
	{
		type: "condition",
		group: "Actions",
		title: "Check a condition",
		description: "Goes one way when something is true, another when not.",
		icon: "GitBranch",
		outcomes: [
			{ id: "true", label: "Yes" },
			{ id: "false", label: "No" },
		],
		hasInput: true,
		hasOutput: true,
		defaults: () => ({ expression: "" }),
	},
	{
		type: "loop",
		group: "Actions",
		title: "Repeat for each",
		description: "Runs the next steps once for every item in a list.",
		icon: "Repeat",
		outcomes: [
			{ id: "body", label: "Each item" },
			{ id: "done", label: "When done" },
		],
		hasInput: true,
		hasOutput: true,
		defaults: () => ({ items: "", item_var: "item", index_var: "index", max_iterations: 100 }),
	},
	{ type: "transform", group: "Actions", title: "Reshape data", description: "Picks, renames or combines values for later steps.", icon: "Shuffle", outcomes: [], hasInput: true, hasOutput: true, defaults: () => ({ mode: "map", mappings: {} }) },
	{ type: "http_request", group: "Utilities", title: "Call a web address", description: "Sends a request to another service and keeps its answer.", icon: "Globe", outcomes: [], hasInput: true, hasOutput: true, defaults: () => ({ method: "GET", url: "", headers: {} }) },
	{ type: "end", group: "Utilities", title: "Finish", description: "Ends the run here, with an optional result.", icon: "Flag", outcomes: [], hasInput: true, hasOutput: false, defaults: () => ({}) },
];

const BY_TYPE = new Map(KINDS.map((kind) => [kind.type, kind]));

export function kindOf(type: string | undefined): Kind | undefined {
	return BY_TYPE.get(type as NodeType);
}

export const EDGE_WORDS: Record<EdgeType, { title: string; description: string }> = {
	always: { title: "Always", description: "Followed whenever the step finishes." },
	on_success: { title: "If it works", description: "Followed when the step succeeds." },
	on_failure: { title: "If it fails", description: "Followed when the step fails, instead of stopping the run." },
	expression: { title: "When a condition holds", description: "Followed only when the condition you write is true." },
};
