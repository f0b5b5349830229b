import { afterEach, describe, expect, it, vi } from "vitest";
import { chatApi } from "./api";

const serverMessages = (...messages: object[]) => JSON.stringify(messages.map((message) => JSON.stringify(message)));

function answering(status: number, body: object) {
	const fetch = vi.fn<typeof globalThis.fetch>(async () => Response.json(body, { status }));
	vi.stubGlobal("fetch", fetch);
	return fetch;
}

afterEach(() => vi.unstubAllGlobals());

describe("chatApi memory", () => {
	it("reads a conversation's memory with a GET naming the conversation", async () => {
		const rows = [{ key: "city", value: "Porto", inject: true, updated_at: "2026-12-07 03:19:40" }];
		const fetch = answering(200, { message: rows });
		await expect(chatApi.memory("C 1")).resolves.toEqual(rows);
		const [url, init] = fetch.mock.calls[0] ?? [];
		expect(url).toBe("/api/method/huf.ai.agent_state.memory.get_conversation_memory?conversation=C+1");
		expect(init?.method).toBeUndefined();
	});

	it("posts a value as JSON text, and an empty one to clear the key", async () => {
		const fetch = answering(200, { message: [] });
		await chatApi.remember("C1", "city", '"Lisbon"');
		await chatApi.remember("C1", "city", "");
		const bodies = fetch.mock.calls.map(([, init]) => JSON.parse(String(init?.body)) as unknown);
		expect(fetch.mock.calls[0]?.[0]).toBe("/api/method/huf.ai.agent_state.memory.set_conversation_memory");
		expect(fetch.mock.calls[0]?.[1]?.method).toBe("POST");
		expect(bodies).toEqual([
			{ conversation: "C1", key: "city", value: '"Lisbon"' },
			{ conversation: "C1", key: "city", value: "" },
		]);
	});

	it("gives the server's words when a value is refused", async () => {
		answering(417, { exc_type: "ValidationError", _server_messages: serverMessages({ message: "This conversation's memory is full (65536 bytes). Clear keys you no longer need (set them to null).", title: "Not saved" }) });
		await expect(chatApi.remember("C1", "notes", '"long"')).rejects.toMatchObject({ status: 417, message: expect.stringContaining("memory is full") as unknown, title: "Not saved" });
	});

	it("says someone else's conversation is not there", async () => {
		answering(404, { exc_type: "DoesNotExistError", _server_messages: serverMessages({ message: "There is no conversation C1 of yours." }) });
		await expect(chatApi.memory("C1")).rejects.toMatchObject({ status: 404, message: "There is no conversation C1 of yours." });
	});
});
