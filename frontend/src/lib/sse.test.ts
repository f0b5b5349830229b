import { describe, expect, it, vi } from "vitest";
import { parseEvents, RunStream, type StreamRecord } from "./sse";

function parseAll(buffer: string): { records: StreamRecord[]; rest: string } {
	const records: StreamRecord[] = [];
	const rest = parseEvents(buffer, (record) => records.push(record));
	return { records, rest };
}

describe("parseEvents", () => {
	it("returns complete records with their id and event, and keeps the incomplete rest", () => {
		const { records, rest } = parseAll('id: 1-0\nevent: delta\ndata: {"a":1}\n\nid: 2-0\ndata: {"b"');
		expect(records).toEqual([{ id: "1-0", event: "delta", data: '{"a":1}' }]);
		expect(rest).toBe('id: 2-0\ndata: {"b"');
	});

	it("completes a record split across chunks once the rest is fed back", () => {
		const records: StreamRecord[] = [];
		const push = (record: StreamRecord) => records.push(record);
		let rest = parseEvents("event: status\nda", push);
		rest = parseEvents(rest + 'ta: {"status":"Success"}\n', push);
		expect(records).toEqual([]);
		rest = parseEvents(rest + "\n", push);
		expect(records).toEqual([{ id: null, event: "status", data: '{"status":"Success"}' }]);
		expect(rest).toBe("");
	});

	it("accepts CRLF line endings", () => {
		const { records, rest } = parseAll('id: 7-0\r\nevent: delta\r\ndata: {"x":1}\r\n\r\nid: 8-0\r\n');
		expect(records).toEqual([{ id: "7-0", event: "delta", data: '{"x":1}' }]);
		expect(rest).toBe("id: 8-0\r\n");
	});

	it("ignores comments such as keepalives", () => {
		const { records } = parseAll(': keepalive\n\n: keepalive\nevent: delta\ndata: {}\n\n');
		expect(records).toEqual([{ id: null, event: "delta", data: "{}" }]);
	});

	it("joins multi-line data with a newline and defaults the event to message", () => {
		const { records } = parseAll("data: first\ndata:second\ndata: http://x\n\n");
		expect(records).toEqual([{ id: null, event: "message", data: "first\nsecond\nhttp://x" }]);
	});
});

type Sent = { id: string; event: string; data: Record<string, unknown> };

const encoder = new TextEncoder();
const sse = (event: Sent) => `id: ${event.id}\nevent: ${event.event}\ndata: ${JSON.stringify(event.data)}\n\n`;

/** A response whose body hands out one chunk per read, then closes, or errors when `fail` is set. */
function streamResponse(chunks: Array<string | Uint8Array>, fail = false): Response {
	let index = 0;
	const body = new ReadableStream<Uint8Array>({
		pull(controller) {
			const chunk = chunks[index++];
			if (chunk !== undefined) controller.enqueue(typeof chunk === "string" ? encoder.encode(chunk) : chunk);
			else if (fail) controller.error(new TypeError("network error"));
			else controller.close();
		},
	});
	return new Response(body, { status: 200, headers: { "Content-Type": "text/event-stream" } });
}

function makeHandlers() {
	return {
		onEvent: vi.fn<(event: string, data: Record<string, unknown>) => void>(),
		onError: vi.fn<(message: string) => void>(),
		onReconnecting: vi.fn<() => void>(),
		onEnd: vi.fn<() => void>(),
	};
}

const lastEventId = (init: RequestInit | undefined) => new Headers(init?.headers).get("Last-Event-ID");
const noWait = { sleep: async () => {}, retryMs: 0 };

describe("RunStream", () => {
	it("attach follows a run to its final status and ends once", async () => {
		const events: Sent[] = [
			{ id: "1-0", event: "delta", data: { run: "run-1", content: "Hé" } },
			{ id: "2-0", event: "delta", data: { content: "llo" } },
			{ id: "3-0", event: "status", data: { status: "Success" } },
		];
		// Cut the bytes so records are split across reads, and the first cut falls inside the two bytes of "é".
		const bytes = encoder.encode(": keepalive\n\n" + events.map(sse).join(""));
		const cut = bytes.indexOf(0xc3) + 1;
		const chunks = [bytes.slice(0, cut), ...Array.from({ length: Math.ceil((bytes.length - cut) / 7) }, (_, i) => bytes.slice(cut + i * 7, cut + i * 7 + 7))];
		const fetch = vi.fn<typeof globalThis.fetch>(async () => streamResponse(chunks));
		const handlers = makeHandlers();
		const stream = new RunStream(handlers, { fetch, ...noWait });

		await stream.attach("run-1");

		expect(fetch).toHaveBeenCalledTimes(1);
		expect(fetch.mock.calls[0]?.[0]).toBe("/huf/stream/run/run-1");
		expect(fetch.mock.calls[0]?.[1]?.method).toBe("GET");
		expect(handlers.onEvent.mock.calls).toEqual(events.map((event) => [event.event, event.data]));
		expect(stream.finished).toBe(true);
		expect(stream.lastId).toBe("3-0");
		expect(handlers.onEnd).toHaveBeenCalledTimes(1);
		expect(handlers.onError).not.toHaveBeenCalled();
	});

	it("reconnects after a dropped stream with Last-Event-ID and receives nothing twice", async () => {
		const events: Sent[] = [
			{ id: "1-0", event: "delta", data: { run: "run-1", content: "He" } },
			{ id: "2-0", event: "delta", data: { content: "llo" } },
			{ id: "3-0", event: "delta", data: { content: " there" } },
			{ id: "4-0", event: "status", data: { status: "Success" } },
		];
		// A server that replays what comes after Last-Event-ID; its first connection drops after two events.
		const after = (id: string | null) => events.slice(events.findIndex((event) => event.id === id) + 1).map(sse);
		let connections = 0;
		const fetch = vi.fn<typeof globalThis.fetch>(async (_url, init) => {
			const pending = after(lastEventId(init));
			connections += 1;
			return connections === 1 ? streamResponse(pending.slice(0, 2), true) : streamResponse(pending);
		});
		const handlers = makeHandlers();

		await new RunStream(handlers, { fetch, ...noWait }).attach("run-1");

		expect(fetch).toHaveBeenCalledTimes(2);
		expect(fetch.mock.calls[1]?.[0]).toBe("/huf/stream/run/run-1");
		expect(lastEventId(fetch.mock.calls[1]?.[1])).toBe("2-0");
		expect(handlers.onEvent.mock.calls).toEqual(events.map((event) => [event.event, event.data]));
		expect(handlers.onReconnecting).toHaveBeenCalledTimes(1);
		expect(handlers.onEnd).toHaveBeenCalledTimes(1);
		expect(handlers.onError).not.toHaveBeenCalled();
	});

	it("reports a refusal with the server's message and does not retry", async () => {
		const fetch = vi.fn<typeof globalThis.fetch>(async () => new Response('event: error\ndata: {"message":"Prompt is empty"}\n\n', { status: 417 }));
		const handlers = makeHandlers();

		await new RunStream(handlers, { fetch, ...noWait }).start("helper", { prompt: "" });

		expect(handlers.onError).toHaveBeenCalledTimes(1);
		expect(handlers.onError).toHaveBeenCalledWith("Prompt is empty");
		expect(fetch).toHaveBeenCalledTimes(1);
		expect(handlers.onEvent).not.toHaveBeenCalled();
	});

	it("start posts the fields and reconnects to the run named by the first event", async () => {
		const fetch = vi
			.fn<typeof globalThis.fetch>()
			.mockResolvedValueOnce(streamResponse([sse({ id: "5-0", event: "run", data: { run: "run-9", conversation: "c-1" } })], true))
			.mockResolvedValueOnce(streamResponse([sse({ id: "6-0", event: "status", data: { status: "Success" } })]));
		const handlers = makeHandlers();
		const stream = new RunStream(handlers, { fetch, ...noWait });

		await stream.start("My Agent", { prompt: "Hi", channel_id: "try" });

		const [url, init] = fetch.mock.calls[0] ?? [];
		expect(url).toBe("/huf/stream/My%20Agent");
		expect(init?.method).toBe("POST");
		expect(new Headers(init?.headers).get("Content-Type")).toBe("application/json");
		expect(JSON.parse(String(init?.body))).toEqual({ prompt: "Hi", channel_id: "try" });
		expect(stream.run).toBe("run-9");
		expect(fetch.mock.calls[1]?.[0]).toBe("/huf/stream/run/run-9");
		expect(lastEventId(fetch.mock.calls[1]?.[1])).toBe("5-0");
		expect(handlers.onEnd).toHaveBeenCalledTimes(1);
		expect(handlers.onError).not.toHaveBeenCalled();
	});

	it("reconnects when a stream ends cleanly before the final status", async () => {
		const fetch = vi
			.fn<typeof globalThis.fetch>()
			.mockResolvedValueOnce(streamResponse([sse({ id: "1-0", event: "delta", data: { content: "Hi" } })]))
			.mockResolvedValueOnce(streamResponse([sse({ id: "2-0", event: "status", data: { status: "Failed", error: "Boom" } })]));
		const handlers = makeHandlers();
		const stream = new RunStream(handlers, { fetch, ...noWait });

		await stream.attach("run-1");

		expect(fetch).toHaveBeenCalledTimes(2);
		expect(lastEventId(fetch.mock.calls[1]?.[1])).toBe("1-0");
		expect(handlers.onEvent.mock.calls.map(([event]) => event)).toEqual(["delta", "status"]);
		expect(stream.finished).toBe(true);
		expect(handlers.onEnd).toHaveBeenCalledTimes(1);
	});

	it("gives up with an error after maxRetries failed reconnects", async () => {
		const fetch = vi.fn<typeof globalThis.fetch>(async () => {
			throw new TypeError("Failed to fetch");
		});
		const handlers = makeHandlers();

		await new RunStream(handlers, { fetch, ...noWait, maxRetries: 2 }).attach("run-1");

		expect(fetch).toHaveBeenCalledTimes(3);
		expect(handlers.onReconnecting).toHaveBeenCalledTimes(2);
		expect(handlers.onError).toHaveBeenCalledWith("The connection was lost. Reload the page to see the answer.");
	});

	it("gives up after maxRetries streams that end with nothing new", async () => {
		const fetch = vi.fn<typeof globalThis.fetch>(async () => streamResponse([": keepalive\n\n"]));
		const handlers = makeHandlers();

		await new RunStream(handlers, { fetch, ...noWait, maxRetries: 2 }).attach("run-1");

		expect(fetch).toHaveBeenCalledTimes(3);
		expect(handlers.onError).toHaveBeenCalledWith("The connection was lost. Reload the page to see the answer.");
		expect(handlers.onEnd).toHaveBeenCalledTimes(1);
	});

	it("skips a record that is not JSON instead of taking it for a lost connection", async () => {
		const done = sse({ id: "2-0", event: "status", data: { status: "Success" } });
		const fetch = vi.fn<typeof globalThis.fetch>(async () => streamResponse(["id: 1-0\ndata: ping\n\n", done]));
		const handlers = makeHandlers();

		await new RunStream(handlers, { fetch, ...noWait }).attach("run-1");

		expect(fetch).toHaveBeenCalledTimes(1);
		expect(handlers.onEvent.mock.calls.map(([event]) => event)).toEqual(["status"]);
		expect(handlers.onError).not.toHaveBeenCalled();
	});

	it("close() stops listening without calling onEnd or onError", async () => {
		// Like a real fetch: the body stays open until the request's signal aborts it.
		const fetch = vi.fn<typeof globalThis.fetch>(async (_url, init) => {
			const body = new ReadableStream<Uint8Array>({
				start(controller) {
					controller.enqueue(encoder.encode(sse({ id: "1-0", event: "delta", data: { content: "Hi" } })));
					init?.signal?.addEventListener("abort", () => controller.error(new DOMException("Aborted", "AbortError")));
				},
			});
			return new Response(body);
		});
		const handlers = makeHandlers();
		const stream = new RunStream(handlers, { fetch, ...noWait });

		const following = stream.attach("run-1");
		await vi.waitFor(() => expect(handlers.onEvent).toHaveBeenCalledTimes(1));
		stream.close();
		await following;

		expect(fetch).toHaveBeenCalledTimes(1);
		expect(handlers.onEnd).not.toHaveBeenCalled();
		expect(handlers.onError).not.toHaveBeenCalled();
	});

	it("close() while waiting to reconnect makes no further request", async () => {
		const fetch = vi.fn<typeof globalThis.fetch>(async () => {
			throw new TypeError("Failed to fetch");
		});
		const handlers = makeHandlers();
		const stream: RunStream = new RunStream(handlers, { fetch, retryMs: 0, sleep: async () => stream.close() });

		await stream.attach("run-1");

		expect(fetch).toHaveBeenCalledTimes(1);
		expect(handlers.onEnd).not.toHaveBeenCalled();
		expect(handlers.onError).not.toHaveBeenCalled();
	});
});
