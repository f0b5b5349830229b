import { cleanup, render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { Answer } from "./Answer";
import { InterruptedCard } from "./InterruptedCard";
import { newAnswer } from "./state";

const resolved: unknown[][] = [];
let failure: Error | null = null;
vi.mock("./api", () => ({
	chatApi: {
		resolve: vi.fn(async (...args: unknown[]) => {
			if (failure) throw failure;
			resolved.push(args);
			return { status: "Queued" };
		}),
	},
}));

afterEach(() => {
	cleanup();
	resolved.length = 0;
	failure = null;
});

const attention = { id: "call-7", name: "send_invoice", arguments: '{"to":"ACME"}' };

describe("InterruptedCard", () => {
	it("says in plain words what may or may not have happened, and what it was using", () => {
		render(<InterruptedCard run="RUN-1" attention={attention} />);
		expect(screen.getByRole("region", { name: "Interrupted: Send invoice" })).toBeTruthy();
		expect(screen.getByText("The assistant was interrupted while it was doing “Send invoice”. It may or may not have been done.")).toBeTruthy();
		expect(screen.getByText(/"to": "ACME"/)).toBeTruthy();
		for (const name of ["Retry", "Skip", "End"]) expect(screen.getByRole("button", { name })).toBeTruthy();
	});

	it("retries the call", async () => {
		render(<InterruptedCard run="RUN-1" attention={attention} />);
		await userEvent.click(screen.getByRole("button", { name: "Retry" }));
		expect(resolved).toEqual([["RUN-1", "call-7", "retry", undefined]]);
		expect(await screen.findByText("You asked it to do “Send invoice” again.")).toBeTruthy();
		expect(screen.queryByRole("button", { name: "Retry" })).toBeNull();
	});

	it("skips the call with what came of it", async () => {
		render(<InterruptedCard run="RUN-1" attention={attention} />);
		await userEvent.type(screen.getByLabelText("What came of it (optional, used if you skip)"), "  It was sent. ");
		await userEvent.click(screen.getByRole("button", { name: "Skip" }));
		expect(resolved).toEqual([["RUN-1", "call-7", "skip", "It was sent."]]);
		expect(await screen.findByText("You skipped “Send invoice”. The assistant goes on without it.")).toBeTruthy();
	});

	it("ends the answer, sending no value", async () => {
		render(<InterruptedCard run="RUN-1" attention={attention} />);
		await userEvent.type(screen.getByLabelText("What came of it (optional, used if you skip)"), "ignored");
		await userEvent.click(screen.getByRole("button", { name: "End" }));
		expect(resolved).toEqual([["RUN-1", "call-7", "end", undefined]]);
		expect(await screen.findByText("You ended this answer.")).toBeTruthy();
	});

	it("shows why a choice was refused and keeps the choices", async () => {
		failure = new Error("This step was already decided (Skipped).");
		render(<InterruptedCard run="RUN-1" attention={attention} />);
		await userEvent.click(screen.getByRole("button", { name: "Retry" }));
		expect((await screen.findByRole("alert")).textContent).toBe("This step was already decided (Skipped).");
		expect(screen.getByRole("button", { name: "Retry" })).toBeTruthy();
	});
});

describe("Answer of a run that was interrupted", () => {
	it("shows the resumed line, and the card while the run waits for the person", () => {
		render(<Answer answer={{ ...newAnswer("a", "RUN-1"), resumed: true, attention }} />);
		expect(screen.getByText("Resumed after an interruption")).toBeTruthy();
		expect(screen.getByTestId("interrupted-call")).toBeTruthy();
		expect(screen.getByText("Waiting for your answer…")).toBeTruthy();
	});
});
