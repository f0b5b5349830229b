import { act, cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { Transcript } from "./api";
import { Composer } from "./Composer";
import { NOTHING_HEARD } from "./VoiceButton";

// The browser's recorder and microphone, as the page sees them: what was "said" is `spoken`.
let spoken = new Blob(["voice"], { type: "audio/webm" });
const tracks: { stopped: boolean }[] = [];
class FakeRecorder {
	static isTypeSupported = (type: string) => type === "audio/webm";
	mimeType: string;
	ondataavailable: ((event: { data: Blob }) => void) | null = null;
	onstop: (() => void) | null = null;
	constructor(
		readonly stream: MediaStream,
		options?: { mimeType: string },
	) {
		this.mimeType = options?.mimeType ?? "";
	}
	start() {}
	stop() {
		this.ondataavailable?.({ data: spoken });
		this.onstop?.();
	}
}
const getUserMedia = vi.fn(async () => {
	const track = { stopped: false, stop: () => void (track.stopped = true) };
	tracks.push(track);
	return { getTracks: () => [track] } as unknown as MediaStream;
});

beforeEach(() => {
	spoken = new Blob(["voice"], { type: "audio/webm" });
	vi.stubGlobal("MediaRecorder", FakeRecorder);
	Object.defineProperty(navigator, "mediaDevices", { value: { getUserMedia }, configurable: true });
});
afterEach(() => {
	cleanup();
	vi.unstubAllGlobals();
	getUserMedia.mockClear();
	tracks.length = 0;
});

const uploaded: File[] = [];
const upload = vi.fn(async (file: File) => {
	uploaded.push(file);
	return { name: "F1", file_name: file.name, file_url: `/private/files/${file.name}` };
});
const heard = (text: string, extra: Partial<Transcript> = {}) =>
	vi.fn(async (url: string, language: string) => ({ success: true, text, language, audio_file_url: url, ...extra }));

function composer(transcribe: ReturnType<typeof heard>, onSend = vi.fn()) {
	render(<Composer agent="Helper" busy={false} allowVoice onSend={onSend} onStop={vi.fn()} upload={upload} transcribe={transcribe} />);
	return onSend;
}

describe("Speak", () => {
	it("records, shows what was heard in the message box to edit, and sends it", async () => {
		const transcribe = heard(" Book a table for two ");
		const onSend = composer(transcribe);
		await userEvent.click(screen.getByRole("button", { name: "Speak" }));
		const stop = await screen.findByRole("button", { name: "Stop recording" });
		expect(screen.getByRole("status")).toHaveProperty("textContent", "Recording… 0:00");
		expect(screen.getByRole("button", { name: "Send" })).toHaveProperty("disabled", true);
		await userEvent.click(stop);
		const box = screen.getByLabelText("Message to Helper");
		await waitFor(() => expect(box).toHaveProperty("value", "Book a table for two"));
		expect(document.activeElement).toBe(box);
		expect(tracks.every((track) => track.stopped)).toBe(true); // the microphone is let go
		const [file] = uploaded.slice(-1);
		expect([file?.type, file?.name.startsWith("voice-note-"), file?.name.endsWith(".webm")]).toEqual(["audio/webm", true, true]);
		expect(transcribe).toHaveBeenCalledWith(`/private/files/${file?.name}`, "en", "Helper");
		await userEvent.type(box, " at eight{Enter}");
		expect(onSend).toHaveBeenCalledWith("Book a table for two at eight", []);
	});

	it("puts what was heard after what was already typed; the keyboard starts and stops it", async () => {
		composer(heard("and a dessert"));
		const box = screen.getByLabelText("Message to Helper");
		await userEvent.type(box, "Soup please ");
		screen.getByRole("button", { name: "Speak" }).focus();
		await userEvent.keyboard("{Enter}");
		expect(await screen.findByRole("button", { name: "Stop recording" })).toBe(document.activeElement);
		await userEvent.keyboard(" ");
		await waitFor(() => expect(box).toHaveProperty("value", "Soup please and a dessert"));
	});

	it("says it is busy while writing down, keeping focus and ignoring presses", async () => {
		let finish: (text: string) => void = () => {};
		const transcribe = vi.fn((url: string, language: string) => new Promise<Transcript>((resolve) => (finish = (text) => resolve({ success: true, text, language, audio_file_url: url }))));
		composer(transcribe);
		await userEvent.click(screen.getByRole("button", { name: "Speak" }));
		await userEvent.click(await screen.findByRole("button", { name: "Stop recording" }));
		const busy = await screen.findByRole("button", { name: "Speak" });
		await waitFor(() => expect(busy.getAttribute("aria-disabled")).toBe("true"));
		expect(document.activeElement).toBe(busy);
		expect(screen.getByRole("status")).toHaveProperty("textContent", "Writing down what you said…");
		await userEvent.click(busy);
		expect(getUserMedia).toHaveBeenCalledOnce();
		finish("Hello");
		await waitFor(() => expect(screen.getByLabelText("Message to Helper")).toHaveProperty("value", "Hello"));
		expect(busy.getAttribute("aria-disabled")).toBe("false");
	});

	it("stops by itself after five minutes", async () => {
		vi.useFakeTimers();
		try {
			const transcribe = heard("A long story");
			composer(transcribe);
			fireEvent.click(screen.getByRole("button", { name: "Speak" }));
			await act(async () => {}); // the microphone is granted
			await act(async () => vi.advanceTimersByTime(299_000));
			expect(screen.getByRole("status")).toHaveProperty("textContent", "Recording… 4:59");
			expect(transcribe).not.toHaveBeenCalled();
			await act(async () => vi.advanceTimersByTime(1_000));
			expect(transcribe).toHaveBeenCalledOnce();
		} finally {
			vi.useRealTimers();
		}
	});

	it("says so when nothing was heard", async () => {
		composer(heard("   "));
		await userEvent.click(screen.getByRole("button", { name: "Speak" }));
		await userEvent.click(await screen.findByRole("button", { name: "Stop recording" }));
		expect(await screen.findByRole("alert")).toHaveProperty("textContent", NOTHING_HEARD);
		expect(NOTHING_HEARD).toBe("Couldn't hear anything — try again.");
		expect(screen.getByLabelText("Message to Helper")).toHaveProperty("value", "");

		spoken = new Blob([], { type: "audio/webm" }); // no sound at all: nothing is uploaded
		const before = upload.mock.calls.length;
		await userEvent.click(screen.getByRole("button", { name: "Speak" }));
		expect(screen.queryByRole("alert")).toBeNull(); // a new try clears the last problem
		await userEvent.click(await screen.findByRole("button", { name: "Stop recording" }));
		expect(await screen.findByRole("alert")).toHaveProperty("textContent", NOTHING_HEARD);
		expect(upload.mock.calls.length).toBe(before);
	});

	it("says why when the recording could not be written down", async () => {
		composer(heard("", { success: false, error: "Transcription failed: the model is busy." }));
		await userEvent.click(screen.getByRole("button", { name: "Speak" }));
		await userEvent.click(await screen.findByRole("button", { name: "Stop recording" }));
		expect(await screen.findByRole("alert")).toHaveProperty("textContent", "Your voice note couldn't be written down. Transcription failed: the model is busy.");
		expect(screen.getByRole("button", { name: "Speak" }).getAttribute("aria-disabled")).toBe("false");
	});

	it("explains a blocked or missing microphone", async () => {
		composer(heard("unused"));
		getUserMedia.mockRejectedValueOnce(new DOMException("Permission denied", "NotAllowedError"));
		await userEvent.click(screen.getByRole("button", { name: "Speak" }));
		expect(await screen.findByRole("alert")).toHaveProperty("textContent", "Your browser blocked the microphone. Allow microphone access for this site (the icon in the address bar), then try again.");
		getUserMedia.mockRejectedValueOnce(new DOMException("Requested device not found", "NotFoundError"));
		await userEvent.click(screen.getByRole("button", { name: "Speak" }));
		expect(await screen.findByRole("alert")).toHaveProperty("textContent", "No microphone was found. Connect one and try again.");
		expect(screen.getByRole("button", { name: "Speak" })).toBeTruthy();
	});

	it("is not offered where the browser cannot record, nor unless asked for", () => {
		const { unmount } = render(<Composer agent="Helper" busy={false} onSend={vi.fn()} onStop={vi.fn()} />);
		expect(screen.queryByRole("button", { name: "Speak" })).toBeNull();
		unmount();
		vi.stubGlobal("MediaRecorder", undefined);
		render(<Composer agent="Helper" busy={false} allowVoice onSend={vi.fn()} onStop={vi.fn()} />);
		expect(screen.queryByRole("button", { name: "Speak" })).toBeNull();
	});
});
