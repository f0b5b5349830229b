import { cleanup, render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { useState } from "react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ApiError } from "../../lib/api";
import { emptyAgent, validateAgent } from "./validation";
import { VoiceSection, type Sample, type VoiceFields } from "./VoiceSection";

afterEach(cleanup);

const models = [
	{ name: "gpt-4o", provider: "OpenAI" },
	{ name: "tts-1", provider: "OpenAI" },
	{ name: "eleven_multilingual_v2", provider: "ElevenLabs" },
];
const none: VoiceFields = { stt_model: "", tts_model: "", tts_voice: "", image_model: "" };

function Harness({ agent, preview, start = none }: { agent: string | null; preview: (agent: string, model: string, voice: string) => Promise<Sample>; start?: VoiceFields }) {
	const [value, setValue] = useState(start);
	return (
		<>
			<VoiceSection value={value} models={models} errors={{}} agent={agent} preview={preview} onChange={(key, v) => setValue((current) => ({ ...current, [key]: v }))} />
			<output data-testid="value">{JSON.stringify(value)}</output>
		</>
	);
}

const sample = { file_url: "/private/files/sample.mp3", file_name: "sample.mp3", content_type: "audio/mpeg" };

describe("VoiceSection", () => {
	it("sets the models that listen, speak and draw, and the voice, each labelled", async () => {
		render(<Harness agent="Helper" preview={vi.fn()} />);
		await userEvent.selectOptions(screen.getByLabelText("Model that writes down speech"), "gpt-4o");
		await userEvent.selectOptions(screen.getByLabelText("Model that speaks"), "eleven_multilingual_v2");
		await userEvent.type(screen.getByLabelText("Voice"), "nova");
		await userEvent.selectOptions(screen.getByLabelText("Model that makes images"), "gpt-4o");
		expect(JSON.parse(screen.getByTestId("value").textContent ?? "")).toEqual({ stt_model: "gpt-4o", tts_model: "eleven_multilingual_v2", tts_voice: "nova", image_model: "gpt-4o" });
		expect(screen.getAllByRole("option", { name: "eleven_multilingual_v2 (ElevenLabs)" })).toHaveLength(3); // offered in each list
		await userEvent.selectOptions(screen.getByLabelText("Model that speaks"), "The provider's usual one");
		expect(JSON.parse(screen.getByTestId("value").textContent ?? "").tts_model).toBe("");
	});

	it("plays a sample with the voice as it is set now", async () => {
		const preview = vi.fn(async () => sample);
		render(<Harness agent="Helper" preview={preview} start={{ ...none, tts_model: "tts-1" }} />);
		await userEvent.type(screen.getByLabelText("Voice"), " alloy ");
		await userEvent.click(screen.getByRole("button", { name: "Play a sample" }));
		expect(preview).toHaveBeenCalledWith("Helper", "tts-1", "alloy");
		const player = await screen.findByLabelText("Voice sample");
		expect([player.tagName, player.getAttribute("src"), player.hasAttribute("controls")]).toEqual(["AUDIO", "/private/files/sample.mp3", true]);
	});

	it("says why no sample could be made", async () => {
		const preview = vi.fn(async () => {
			throw new ApiError("The AI Provider OpenAI has no API key.", 417);
		});
		render(<Harness agent="Helper" preview={preview} />);
		await userEvent.click(screen.getByRole("button", { name: "Play a sample" }));
		expect(await screen.findByRole("alert")).toHaveProperty("textContent", "No sample could be made: The AI Provider OpenAI has no API key.");
		expect(screen.queryByLabelText("Voice sample")).toBeNull();
	});

	it("asks to save a new agent before a sample", () => {
		render(<Harness agent={null} preview={vi.fn()} />);
		const button = screen.getByRole("button", { name: "Play a sample" });
		expect(button).toHaveProperty("disabled", true);
		expect(button.getAttribute("aria-describedby")).toBe("voice-sample-hint");
		expect(screen.getByText("Save the agent first to hear a sample.").id).toBe("voice-sample-hint");
	});
});

describe("The agent's voice rules", () => {
	const known = (model: string) => models.find((m) => m.name === model)?.provider;
	it("refuses a model that is not available, and a voice name too long", () => {
		const agent = { ...emptyAgent(), agent_name: "A", model: "gpt-4o" };
		expect(validateAgent({ ...agent, stt_model: "gpt-4o", tts_model: "tts-1", tts_voice: "nova", image_model: "gpt-4o" }, known)).toEqual({});
		const errors = validateAgent({ ...agent, stt_model: "gone", tts_model: "gone", image_model: "gone", tts_voice: "x".repeat(141) }, known);
		expect(Object.keys(errors).sort()).toEqual(["image_model", "stt_model", "tts_model", "tts_voice"]);
		expect(errors.tts_model).toBe("This model isn't available. Pick another, or leave it empty for the provider's usual one.");
	});
});
