import { describe, expect, it } from "vitest";
import { applyEvent, approvalsFrom, attentionFrom, formatCost, itemsFromMessages, newAnswer, type AnswerItem, type StoredMessage, type StoredRun } from "./state";

function message(fields: Partial<StoredMessage> & Pick<StoredMessage, "name" | "role" | "kind">): StoredMessage {
	return { sequence: 0, content: null, tool_name: null, tool_call_id: null, tool_calls: null, tool_status: null, agent_run: null, feedback: null, ...fields };
}

const run = (status: string): StoredRun => ({ status, input_tokens: 10, output_tokens: 5, total_tokens: 15, total_cost: 0.002, duration_seconds: 1.5 });

const weatherCall = JSON.stringify([{ id: "call-1", type: "function", function: { name: "get_weather", arguments: '{"city":"Paris"}' } }]);

describe("itemsFromMessages", () => {
	it("turns one run's user, tool call, tool result and message rows into a user item and one answer", () => {
		const items = itemsFromMessages(
			[
				message({ name: "m1", role: "user", kind: "Message", content: "Weather in Paris?", agent_run: "run-1" }),
				message({ name: "m2", role: "assistant", kind: "Tool Call", tool_calls: weatherCall, agent_run: "run-1" }),
				message({ name: "m3", role: "tool", kind: "Tool Result", content: "18°C", tool_call_id: "call-1", tool_status: "Success", agent_run: "run-1" }),
				message({ name: "m4", role: "assistant", kind: "Message", content: "It is 18°C.", agent_run: "run-1", feedback: "Good" }),
			],
			{ "run-1": run("Success") },
		);

		expect(items).toEqual([
			{ kind: "user", key: "m1", text: "Weather in Paris?", run: "run-1", attachments: [] },
			{
				...newAnswer("answer-run-1", "run-1"),
				status: "done",
				text: "It is 18°C.",
				message: "m4",
				feedback: "Good",
				tools: [{ id: "call-1", name: "get_weather", arguments: '{"city":"Paris"}', result: "18°C", ok: true, durationMs: null }],
				usage: { input_tokens: 10, output_tokens: 5, total_tokens: 15, cost: 0.002, seconds: 1.5 },
			},
		]);
	});

	it("marks a failed tool result as not ok", () => {
		const [answer] = itemsFromMessages([
			message({ name: "m2", role: "assistant", kind: "Tool Call", tool_calls: weatherCall, agent_run: "run-1" }),
			message({ name: "m3", role: "tool", kind: "Tool Result", content: "timeout", tool_call_id: "call-1", tool_status: "Failed", agent_run: "run-1" }),
		]) as AnswerItem[];
		expect(answer?.tools[0]).toMatchObject({ result: "timeout", ok: false });
	});

	it("makes the answer failed with the error text, without usage, for an Error row", () => {
		const items = itemsFromMessages(
			[
				message({ name: "m1", role: "user", kind: "Message", content: "Hi", agent_run: "run-2" }),
				message({ name: "m2", role: "assistant", kind: "Error", content: "The provider refused the key.", agent_run: "run-2" }),
			],
			{ "run-2": run("Failed") },
		);
		expect(items[1]).toMatchObject({ kind: "answer", status: "failed", error: "The provider refused the key.", usage: null });
	});

	it("keeps the answers of different runs apart, in order", () => {
		const items = itemsFromMessages([
			message({ name: "u1", role: "user", kind: "Message", content: "One", agent_run: "run-1" }),
			message({ name: "a1", role: "assistant", kind: "Message", content: "First", agent_run: "run-1" }),
			message({ name: "u2", role: "user", kind: "Message", content: "Two", agent_run: "run-2" }),
			message({ name: "a2", role: "assistant", kind: "Message", content: "Second", agent_run: "run-2" }),
		]);
		expect(items.map((item) => `${item.kind}:${item.text}`)).toEqual(["user:One", "answer:First", "user:Two", "answer:Second"]);
	});
});

describe("applyEvent", () => {
	it("builds the text from the pieces the deltas carry", () => {
		let answer = newAnswer("live");
		for (const content of ["Hel", "lo", " there"]) answer = applyEvent(answer, "delta", { type: "delta", content });
		expect(answer.text).toBe("Hello there");
	});

	it("takes a snapshot's text as the whole text so far, then adds the pieces after it", () => {
		let answer = applyEvent(newAnswer("live"), "delta", { content: "stale" });
		answer = applyEvent(answer, "snapshot", { type: "snapshot", full_response: "Hello" });
		answer = applyEvent(answer, "delta", { content: " there" });
		expect(answer.text).toBe("Hello there");
	});

	it("learns the run from the event", () => {
		expect(applyEvent(newAnswer("live"), "delta", { run: "run-7", content: "" }).run).toBe("run-7");
	});

	it("adds a tool call once even when its event arrives twice", () => {
		const call = { id: "call-1", name: "get_weather", arguments: { city: "Paris" } };
		const answer = applyEvent(applyEvent(newAnswer("live"), "tool_call", call), "tool_call", call);
		expect(answer.tools).toEqual([{ id: "call-1", name: "get_weather", arguments: '{"city":"Paris"}', result: null, ok: null, durationMs: null }]);
	});

	it("fills the tool step from its result", () => {
		const calling = applyEvent(newAnswer("live"), "tool_call", { id: "call-1", name: "get_weather", arguments: "{}" });
		const answer = applyEvent(calling, "tool_result", { id: "call-1", content: "18°C", ok: true, duration_ms: 42 });
		expect(answer.tools[0]).toMatchObject({ result: "18°C", ok: true, durationMs: 42 });
	});

	it("sets the final text, usage and cost on complete", () => {
		const answer = applyEvent(newAnswer("live"), "complete", {
			response: "Done.",
			usage: { input_tokens: 100, output_tokens: 20, total_tokens: 120 },
			cost: 0.0031,
			duration_seconds: 2.5,
		});
		expect(answer.text).toBe("Done.");
		expect(answer.usage).toEqual({ input_tokens: 100, output_tokens: 20, total_tokens: 120, cost: 0.0031, seconds: 2.5 });
	});

	it("sets the error from data.error on a Failed status", () => {
		const answer = applyEvent(newAnswer("live"), "status", { status: "Failed", error: "Rate limit reached" });
		expect(answer.status).toBe("failed");
		expect(answer.error).toBe("Rate limit reached");
	});

	it("says the answer is waiting while its run is queued, until a worker starts it", () => {
		const queued = applyEvent(newAnswer("live"), "status", { status: "Queued" });
		expect(queued).toMatchObject({ status: "running", waiting: true });
		expect(applyEvent(queued, "status", { status: "Started" })).toMatchObject({ status: "running", waiting: false });
	});

	it("keeps an earlier error event's message when the run then fails", () => {
		const errored = applyEvent(newAnswer("live"), "error", { message: "Provider is down" });
		expect(applyEvent(errored, "status", { status: "Failed", error: "Failed" }).error).toBe("Provider is down");
	});

	it("never changes the answer it is given", () => {
		const calling = applyEvent(newAnswer("live"), "tool_call", { id: "call-1", name: "search", arguments: "{}" });
		const before = structuredClone(calling);
		const events: Array<[string, Record<string, unknown>]> = [
			["delta", { run: "run-1", content: "Hi" }],
			["snapshot", { full_response: "Hi" }],
			["tool_call", { id: "call-2", name: "lookup", arguments: "{}" }],
			["tool_result", { id: "call-1", content: "found", ok: true, duration_ms: 5 }],
			["complete", { response: "Hi", usage: { total_tokens: 3 }, cost: 1 }],
			["status", { status: "Failed", error: "x" }],
		];
		for (const [event, data] of events) {
			expect(applyEvent(calling, event, data)).not.toBe(calling);
		}
		expect(calling).toEqual(before);
	});
});

describe("formatCost", () => {
	it("shows no cost as $0, small costs with four decimals and others with two", () => {
		expect(formatCost(0)).toBe("$0");
		expect(formatCost(0.0042)).toBe("$0.0042");
		expect(formatCost(0.01)).toBe("$0.01");
		expect(formatCost(1.234)).toBe("$1.23");
	});
});

describe("itemsFromMessages with the runs' outcome", () => {
	const row = (name: string, role: string, kind: string, content: string) => ({
		name, sequence: 1, role, kind, content, tool_name: null, tool_call_id: null, tool_calls: null, tool_status: null, agent_run: "r1", feedback: null,
	});
	const run = (status: string) => ({ status, input_tokens: 1, output_tokens: 1, total_tokens: 2, total_cost: 0, duration_seconds: 1 });

	it("shows a stored Failed or Cancelled run as such, and usage only for a successful one", () => {
		const messages = [row("m1", "user", "Message", "hi"), row("m2", "agent", "Message", "partial")];
		const failed = itemsFromMessages(messages, { r1: run("Failed") })[1];
		const cancelled = itemsFromMessages(messages, { r1: run("Cancelled") })[1];
		const done = itemsFromMessages(messages, { r1: run("Success") })[1];
		expect([failed?.kind === "answer" && failed.status, cancelled?.kind === "answer" && cancelled.status]).toEqual(["failed", "cancelled"]);
		expect(done?.kind === "answer" && done.usage?.total_tokens).toBe(2);
		expect(failed?.kind === "answer" && failed.usage).toBeNull();
	});
});

describe("itemsFromMessages for answers that ended early", () => {
	const user = (run: string) => message({ name: `u-${run}`, role: "user", kind: "Message", content: "count", agent_run: run });
	const ended = (status: string, response: string, error_message: string | null = null): StoredRun => ({ status, response, error_message, input_tokens: 0, output_tokens: 0, total_tokens: 0, total_cost: 0, duration_seconds: null });

	it("shows a stopped answer that has no stored reply with the text it had", () => {
		const items = itemsFromMessages([user("r1")], { r1: ended("Cancelled", "one two") });
		expect(items.map((item) => item.kind)).toEqual(["user", "answer"]);
		expect(items[1]).toMatchObject({ kind: "answer", status: "cancelled", text: "one two", error: null });
	});

	it("shows a failed answer's reason once, even when an Error row is stored too", () => {
		const error = message({ name: "e1", role: "agent", kind: "Error", content: "The provider refused the key.", agent_run: "r2" });
		const items = itemsFromMessages([user("r2"), error], { r2: ended("Failed", "", "The provider refused the key.") });
		expect(items).toHaveLength(2);
		expect(items[1]).toMatchObject({ status: "failed", error: "The provider refused the key." });
	});
});

describe("tool approvals", () => {
	it("shows a call waiting for approval once, then the decision on it", () => {
		const event = { type: "tool_approval", run: "RUN-1", id: "c1", name: "delete_document", arguments: '{"name":"N1"}', turn: 1 };
		let answer = applyEvent(newAnswer("live", "RUN-1"), "tool_approval", event);
		answer = applyEvent(answer, "tool_approval", event); // a replay after a reconnect
		expect(answer.approvals).toEqual([{ id: "c1", name: "delete_document", arguments: '{"name":"N1"}', decision: null, ready: false }]);
		answer = applyEvent(answer, "status", { status: "Awaiting Approval", waiting_for: ["c1"] }); // the run has paused: decisions are taken
		expect(answer.approvals[0]?.ready).toBe(true);
		answer = applyEvent(answer, "tool_decision", { id: "c1", decision: "Approved" });
		expect(answer.approvals[0]?.decision).toBe("Approved");
	});

	it("rebuilds the waiting calls from the stored rows after a reload", () => {
		const stored = approvalsFrom([{ call_id: "c1", tool: "delete_document", tool_args: { name: "N1" } }]);
		expect(stored).toEqual([{ id: "c1", name: "delete_document", arguments: '{"name":"N1"}', decision: null, ready: true }]);
		const answer = applyEvent({ ...newAnswer("live", "RUN-1"), approvals: stored }, "tool_approval", { id: "c1", name: "delete_document", arguments: "{}" });
		expect(answer.approvals).toHaveLength(1);
	});
});

describe("a run interrupted when its worker stopped", () => {
	it("shows the line and goes on from the text of its recorded steps, dropping what was lost", () => {
		let answer = applyEvent(newAnswer("live", "RUN-1"), "delta", { content: "Let me look. " });
		answer = applyEvent(answer, "delta", { content: "Half an ans" }); // the step the worker died in
		answer = applyEvent(answer, "resumed", { type: "resumed", run: "RUN-1", full_response: "Let me look. " });
		expect(answer.resumed).toBe(true);
		expect(answer.text).toBe("Let me look. ");
		answer = applyEvent(answer, "delta", { content: "Found it." });
		expect(answer.text).toBe("Let me look. Found it.");
	});

	it("asks the person about the call it stopped on, and lets go of it once the run goes on", () => {
		const call = { id: "c1", name: "send_invoice", arguments: '{"to":"ACME"}' };
		let answer = applyEvent(newAnswer("live", "RUN-1"), "status", { status: "Needs Attention", call });
		expect(answer.attention).toEqual(call);
		expect(answer.status).toBe("running");
		answer = applyEvent(answer, "status", { status: "Queued" }); // a person chose Retry or Skip
		expect(answer.attention).toBeNull();
		expect(answer.waiting).toBe(true);
	});

	it("ends as stopped when the person ends the run", () => {
		const call = { id: "c1", name: "send_invoice", arguments: "{}" };
		let answer = applyEvent(newAnswer("live", "RUN-1"), "status", { status: "Needs Attention", call });
		answer = applyEvent(answer, "status", { status: "Cancelled", error: "Ended by alice@example.com after an interruption" });
		expect(answer.status).toBe("cancelled");
		expect(answer.attention).toBeNull();
	});

	it("rebuilds the call it stopped on from the stored row after a reload, and says a stored run was resumed", () => {
		expect(attentionFrom([{ call_id: "c1", tool: "send_invoice", tool_args: { to: "ACME" } }])).toEqual({ id: "c1", name: "send_invoice", arguments: '{"to":"ACME"}' });
		expect(attentionFrom([])).toBeNull();
		const [, answer] = itemsFromMessages(
			[
				message({ name: "m1", role: "user", kind: "Message", content: "Hi", agent_run: "run-1" }),
				message({ name: "m2", role: "agent", kind: "Message", content: "Hello", agent_run: "run-1" }),
			],
			{ "run-1": { ...run("Success"), resumed_count: 1 } },
		);
		expect(answer).toMatchObject({ kind: "answer", resumed: true, text: "Hello" });
	});
});
