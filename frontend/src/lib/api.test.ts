import { afterEach, describe, expect, it, vi } from "vitest";
import { ApiError, errorFromBody } from "./api";

const serverMessages = (...messages: object[]) => JSON.stringify(messages.map((message) => JSON.stringify(message)));

describe("errorFromBody", () => {
	it("uses Frappe's last server message, without tags, and keeps its title", () => {
		const body = {
			exc_type: "ValidationError",
			_server_messages: serverMessages({ message: "Ignored earlier message" }, { message: "<b>Temperature</b> must be between 0 and 2", title: "Invalid Temperature" }),
		};
		const error = errorFromBody(417, body);
		expect(error).toBeInstanceOf(ApiError);
		expect(error.message).toBe("Temperature must be between 0 and 2");
		expect(error.title).toBe("Invalid Temperature");
		expect(error.status).toBe(417);
		expect(error.kind).toBe("ValidationError");
	});

	it("keeps each line of a message that lists several problems", () => {
		const error = errorFromBody(417, { _server_messages: serverMessages({ message: "Node Ask (ask): no approver<br>Node Done (done): &lt;odd&gt;" }) });
		expect(error.message).toBe("Node Ask (ask): no approver\nNode Done (done): <odd>");
	});

	it("explains a 403 without messages as missing permission", () => {
		const error = errorFromBody(403, { exc_type: "PermissionError" });
		expect(error.message).toBe("You don't have permission to do that.");
		expect(error.status).toBe(403);
	});

	it("falls back to a generic message when _server_messages is not valid JSON", () => {
		expect(errorFromBody(500, { _server_messages: "not json" }).message).toBe("Something went wrong on the server (error 500). Try again in a moment.");
	});
});

describe("call", () => {
	afterEach(() => {
		vi.unstubAllGlobals();
		delete window.HUF_BOOT;
	});

	// `boot` is read when the module loads, so set it first and import a fresh copy.
	async function loadApi(csrf_token: string) {
		window.HUF_BOOT = { csrf_token };
		vi.resetModules();
		return import("./api");
	}

	it("sends the CSRF token from the boot data and returns the message", async () => {
		const { call } = await loadApi("token-123");
		const fetch = vi.fn<typeof globalThis.fetch>(async () => Response.json({ message: { ok: 1 } }));
		vi.stubGlobal("fetch", fetch);

		await expect(call("huf.api.save", { name: "a" }, true)).resolves.toEqual({ ok: 1 });

		const [url, init] = fetch.mock.calls[0] ?? [];
		expect(url).toBe("/api/method/huf.api.save");
		expect(init?.method).toBe("POST");
		expect(new Headers(init?.headers).get("X-Frappe-CSRF-Token")).toBe("token-123");
		expect(JSON.parse(String(init?.body))).toEqual({ name: "a" });
	});

	it("puts GET arguments in the query string, JSON-encoding non-strings and skipping null", async () => {
		const { call } = await loadApi("t");
		const fetch = vi.fn<typeof globalThis.fetch>(async () => Response.json({ message: [] }));
		vi.stubGlobal("fetch", fetch);

		await call("huf.api.list", { agent: "My Agent", limit: 5, skip: null });

		expect(fetch.mock.calls[0]?.[0]).toBe("/api/method/huf.api.list?agent=My+Agent&limit=5");
	});

	it("rejects with the server's explanation when the call fails", async () => {
		const api = await loadApi("t");
		const body = { _server_messages: serverMessages({ message: "Agent <i>X</i> is disabled", title: "Not allowed" }) };
		vi.stubGlobal("fetch", async () => Response.json(body, { status: 417 }));

		const error = await api.call("huf.api.run").catch((caught: unknown) => caught);

		expect(error).toBeInstanceOf(api.ApiError);
		expect(error).toMatchObject({ message: "Agent X is disabled", title: "Not allowed", status: 417 });
	});

	it("turns a network failure into a readable ApiError with status 0", async () => {
		const api = await loadApi("t");
		vi.stubGlobal("fetch", async () => {
			throw new TypeError("Failed to fetch");
		});

		await expect(api.call("huf.api.run")).rejects.toMatchObject({ status: 0, message: "Can't reach the server. Check your connection and try again." });
	});
});
