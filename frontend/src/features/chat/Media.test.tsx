import { cleanup, render, screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { Answer } from "./Answer";
import { mediaOf } from "./media";
import { newAnswer, type ToolStep } from "./state";

vi.mock("./api", () => ({ chatApi: {} }));
afterEach(cleanup);

const image = { file_url: "/private/files/cat.png", file_name: "cat.png", kind: "image", content_type: "image/png", size: 12 };
const audio = { file_url: "/private/files/hello.mp3", file_name: "hello.mp3", kind: "audio", content_type: "audio/mpeg", size: 34 };

function step(result: unknown, args: unknown = {}): ToolStep {
	return { id: "c1", name: "generate_image", arguments: JSON.stringify(args), result: JSON.stringify(result), ok: true, durationMs: 5 };
}

describe("mediaOf", () => {
	it("reads images and audio of a tool result, described by the prompt", () => {
		expect(mediaOf(JSON.stringify({ success: true, files: [image, audio] }), JSON.stringify({ prompt: "A cat on a mat" }))).toEqual([
			{ url: "/private/files/cat.png", name: "cat.png", kind: "image", alt: "A cat on a mat" },
			{ url: "/private/files/hello.mp3", name: "hello.mp3", kind: "audio", alt: "A cat on a mat" },
		]);
		expect(mediaOf(JSON.stringify({ files: [image], revised_prompt: "A grey cat" }), JSON.stringify({ prompt: "cat" }))[0]?.alt).toBe("A grey cat");
		expect(mediaOf(JSON.stringify(JSON.stringify({ files: [image] })))).toHaveLength(1); // kept as a JSON string
		expect(mediaOf(JSON.stringify({ files: [{ file_url: "/files/a%20b.webp", content_type: "image/webp" }] }))).toEqual([{ url: "/files/a%20b.webp", name: "a b.webp", kind: "image", alt: "Image a b.webp" }]);
	});

	it("shows nothing from another site, of another kind, or from text that is not such a result", () => {
		const odd = [
			{ ...image, file_url: "https://elsewhere.example/cat.png" },
			{ ...image, file_url: "javascript:alert(1)" },
			{ ...image, file_url: "//elsewhere.example/files/cat.png" },
			{ ...image, kind: "pdf", content_type: "application/pdf" },
			null,
		];
		expect(mediaOf(JSON.stringify({ files: odd }))).toEqual([]);
		expect(mediaOf("plain words")).toEqual([]);
		expect(mediaOf(JSON.stringify([image]))).toEqual([]);
		expect(mediaOf(null)).toEqual([]);
	});
});

describe("An answer with media", () => {
	it("shows the image to open full size, a player for audio, and a Download link for each", () => {
		const tools = [step({ success: true, files: [image] }, { prompt: "A cat on a mat" }), { ...step({ success: true, files: [audio] }, { input: "Hello there" }), id: "c2", name: "generate_audio" }];
		render(<Answer answer={{ ...newAnswer("a"), status: "done", text: "Here you are.", tools }} />);
		const list = screen.getByRole("list", { name: "Files the agent made" });
		const picture = within(list).getByRole("img", { name: "A cat on a mat" });
		expect(picture.getAttribute("src")).toBe("/private/files/cat.png");
		expect(picture.closest("a")?.getAttribute("href")).toBe("/private/files/cat.png");
		const player = list.querySelector("audio");
		expect(player?.getAttribute("src")).toBe("/private/files/hello.mp3");
		expect(player?.hasAttribute("controls")).toBe(true);
		expect(player?.getAttribute("aria-label")).toBe("Hello there");
		const downloads = within(list).getAllByRole("link", { name: /^Download / });
		expect(downloads.map((a) => [a.textContent, a.getAttribute("href"), a.getAttribute("download")])).toEqual([
			["Download cat.png", "/private/files/cat.png", "cat.png"],
			["Download hello.mp3", "/private/files/hello.mp3", "hello.mp3"],
		]);
	});

	it("shows no media list while a tool is still working", () => {
		render(<Answer answer={{ ...newAnswer("a"), tools: [{ ...step(null), result: null, ok: null }] }} />);
		expect(screen.queryByRole("list", { name: "Files the agent made" })).toBeNull();
	});
});
