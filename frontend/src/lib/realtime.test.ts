import { describe, expect, it, vi } from "vitest";

type Handler = (data?: Record<string, unknown>) => void;
const handlers = new Map<string, Set<Handler>>();
const fire = (event: string, data?: Record<string, unknown>) => handlers.get(event)?.forEach((handler) => handler(data));

vi.mock("socket.io-client", () => ({
	io: () => ({
		on: (event: string, handler: Handler) => handlers.set(event, (handlers.get(event) ?? new Set()).add(handler)),
		off: (event: string, handler: Handler) => handlers.get(event)?.delete(handler),
		emit: () => undefined,
	}),
}));

const { subscribe } = await import("./realtime");
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe("subscribe", () => {
	it("passes on each event, reads again on every (re)connection, and stops when unsubscribed", async () => {
		const listener = vi.fn();
		const missed = vi.fn();
		const unsubscribe = subscribe("agent_run_status", listener, missed);
		await settle();

		fire("connect");
		fire("agent_run_status", { run: "r1" });
		fire("connect"); // after a dropped connection: what was sent meanwhile never arrives
		expect(listener).toHaveBeenCalledWith({ run: "r1" });
		expect(missed).toHaveBeenCalledTimes(2);

		unsubscribe();
		await settle();
		fire("connect");
		fire("agent_run_status", { run: "r2" });
		expect(listener).toHaveBeenCalledTimes(1);
		expect(missed).toHaveBeenCalledTimes(2);
	});
});
