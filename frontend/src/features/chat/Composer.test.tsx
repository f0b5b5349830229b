import { cleanup, render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { Composer } from "./Composer";

afterEach(cleanup);

describe("Composer", () => {
	it("sends on Enter, adds a line on Shift+Enter, and clears after sending", async () => {
		const onSend = vi.fn();
		render(<Composer agent="Helper" busy={false} onSend={onSend} onStop={vi.fn()} />);
		const box = screen.getByLabelText("Message to Helper");
		await userEvent.type(box, "first line{Shift>}{Enter}{/Shift}second line");
		expect(onSend).not.toHaveBeenCalled();
		await userEvent.keyboard("{Enter}");
		expect(onSend).toHaveBeenCalledWith("first line\nsecond line");
		expect(box).toHaveProperty("value", "");
	});

	it("sends nothing blank, and offers Stop instead of Send while an answer is written", async () => {
		const onSend = vi.fn();
		const onStop = vi.fn();
		const { rerender } = render(<Composer agent="Helper" busy={false} onSend={onSend} onStop={onStop} />);
		await userEvent.type(screen.getByLabelText("Message to Helper"), "   {Enter}");
		expect(onSend).not.toHaveBeenCalled();
		rerender(<Composer agent="Helper" busy onSend={onSend} onStop={onStop} />);
		expect(screen.queryByRole("button", { name: "Send" })).toBeNull();
		await userEvent.click(screen.getByRole("button", { name: "Stop" }));
		expect(onStop).toHaveBeenCalledOnce();
	});
});
