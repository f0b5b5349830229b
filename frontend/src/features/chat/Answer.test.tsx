import { cleanup, render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { Answer } from "./Answer";
import { newAnswer } from "./state";

const rated: unknown[][] = [];
const decided: unknown[][] = [];
vi.mock("./api", () => ({
	chatApi: {
		rate: vi.fn(async (...args: unknown[]) => void rated.push(args)),
		decide: vi.fn(async (...args: unknown[]) => void decided.push(args)),
	},
}));

afterEach(() => {
	cleanup();
	rated.length = 0;
	decided.length = 0;
});

describe("Answer", () => {
	it("takes a comment with a good rating as well as with a bad one", async () => {
		render(<Answer answer={{ ...newAnswer("a"), status: "done", text: "Paris", message: "M1" }} />);
		expect(screen.queryByRole("button", { name: "Add a comment" })).toBeNull();
		await userEvent.click(screen.getByRole("button", { name: "Good answer" }));
		await userEvent.click(await screen.findByRole("button", { name: "Add a comment" }));
		await userEvent.type(screen.getByLabelText("Comment"), "Short and right");
		await userEvent.click(screen.getByRole("button", { name: "Send rating" }));
		expect(rated).toEqual([["M1", "Thumbs Up", undefined], ["M1", "Thumbs Up", "Short and right"]]);

		await userEvent.click(screen.getByRole("button", { name: "Bad answer" }));
		expect(screen.getByRole("dialog", { name: "What was wrong?" })).toBeTruthy();
	});

	it("says so while the answer waits for its turn", () => {
		render(<Answer answer={{ ...newAnswer("a"), waiting: true }} />);
		expect(screen.getByText("Waiting for its turn…")).toBeTruthy();
	});

	it("offers Approve and Reject only once the run has paused for the call", () => {
		const approval = { id: "call-9", name: "delete_document", arguments: "{}", decision: null, ready: false };
		render(<Answer answer={{ ...newAnswer("a", "RUN-1"), approvals: [approval] }} />);
		expect(screen.getByRole("button", { name: "Approve" }).hasAttribute("disabled")).toBe(true);
		expect(screen.getByRole("button", { name: "Reject" }).hasAttribute("disabled")).toBe(true);
	});

	it("asks the person to allow a call, with its arguments, and sends their answer with the comment", async () => {
		const approval = { id: "call-9", name: "delete_document", arguments: '{"name":"TODO-1"}', decision: null, ready: true };
		render(<Answer answer={{ ...newAnswer("a", "RUN-1"), approvals: [approval] }} />);
		expect(screen.getByText("The assistant wants to run Delete document. Allow it?")).toBeTruthy();
		expect(screen.getByText(/"name": "TODO-1"/)).toBeTruthy();
		expect(screen.getByText("Waiting for your answer…")).toBeTruthy();
		await userEvent.type(screen.getByLabelText("Comment (optional)"), "not that one");
		await userEvent.click(screen.getByRole("button", { name: "Reject" }));
		expect(decided).toEqual([["RUN-1", "call-9", "reject", "not that one"]]);
		expect(await screen.findByText("You declined Delete document.")).toBeTruthy();
		expect(screen.queryByRole("button", { name: "Approve" })).toBeNull();
	});
});
