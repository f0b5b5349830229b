/**
 * The server as a page test sees it: every `call` is recorded in `api.calls` and answered from
 * `api.replies` by the method's last name (a value, an Error to throw, or a function of the call's
 * arguments). A test file replaces the real `call` with
 * `vi.mock("../../lib/api", async (original) => ({ ...(await original<typeof import("../../lib/api")>()), call: (await import("../../test/fakeApi")).fakeCall }));`
 * and calls `resetApi()` after each test.
 */
import { vi } from "vitest";

export const api = {
	calls: [] as { method: string; args: Record<string, unknown> }[],
	replies: {} as Record<string, unknown>,
};

export const fakeCall = vi.fn(async (method: string, args: Record<string, unknown> = {}) => {
	api.calls.push({ method, args });
	const reply = api.replies[method.split(".").pop() ?? ""];
	if (reply instanceof Error) throw reply;
	return typeof reply === "function" ? (reply as (args: Record<string, unknown>) => unknown)(args) : reply;
});

export function resetApi(): void {
	api.calls.length = 0;
	api.replies = {};
}
