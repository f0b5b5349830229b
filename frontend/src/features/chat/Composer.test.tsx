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
		expect(onSend).toHaveBeenCalledWith("first line\nsecond line", []);
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
		rerender(<Composer agent="Helper" busy stopping onSend={onSend} onStop={onStop} />);
		expect(screen.getByRole("button", { name: "Stopping…" })).toHaveProperty("disabled", true);
	});
});

describe("Composer with files", () => {
	it("uploads chosen files, lets one be removed, and sends the rest with the message", async () => {
		const onSend = vi.fn();
		const upload = vi.fn(async (file: File) => ({ name: `F-${file.name}`, file_name: file.name, file_url: `/private/files/${file.name}` }));
		render(<Composer agent="Helper" busy={false} allowFiles onSend={onSend} onStop={vi.fn()} upload={upload} />);
		const input = screen.getByTestId("attach-input");
		await userEvent.upload(input, [new File(["a"], "a.pdf", { type: "application/pdf" }), new File(["b"], "b.txt", { type: "text/plain" })]);
		expect(upload).toHaveBeenCalledTimes(2);
		await userEvent.click(await screen.findByRole("button", { name: "Remove a.pdf" }));
		await userEvent.type(screen.getByLabelText("Message to Helper"), "read this{Enter}");
		expect(onSend).toHaveBeenCalledWith("read this", [{ name: "F-b.txt", file_name: "b.txt", file_url: "/private/files/b.txt" }]);
		expect(screen.queryByText("b.txt")).toBeNull(); // cleared after sending
	});

	it("says which file failed to upload, and offers no attach button when the agent takes no files", async () => {
		const upload = vi.fn(async () => {
			throw new Error("File type not allowed");
		});
		const { rerender } = render(<Composer agent="Helper" busy={false} allowFiles onSend={vi.fn()} onStop={vi.fn()} upload={upload} />);
		await userEvent.upload(screen.getByTestId("attach-input"), new File(["x"], "x.pdf"));
		expect(await screen.findByRole("alert")).toHaveProperty("textContent", "x.pdf: File type not allowed");
		rerender(<Composer agent="Helper" busy={false} onSend={vi.fn()} onStop={vi.fn()} />);
		expect(screen.queryByRole("button", { name: /Attach files/ })).toBeNull();
	});
});
