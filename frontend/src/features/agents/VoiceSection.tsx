import { Loader2, Volume2 } from "lucide-react";
import { useState } from "react";
import { Button } from "../../components/ui/button";
import { Field, Input, Select } from "../../components/ui/field";
import { call } from "../../lib/api";
import type { ModelRow } from "../providers/api";
import type { FieldErrors } from "../../lib/rules";

/** The Agent's Voice and images fields (the shared contract's names). */
export type VoiceFields = { stt_model: string; tts_model: string; tts_voice: string; image_model: string };
export type Sample = { file_url: string; file_name: string; content_type: string };

/** A short sample of the voice, saved as the caller's private file (huf.ai.media.sdk_tools.preview_voice). */
export const previewVoice = (agent: string, ttsModel: string, ttsVoice: string) =>
	call<Sample>("huf.ai.media.sdk_tools.preview_voice", { agent, ...(ttsModel ? { tts_model: ttsModel } : {}), ...(ttsVoice ? { tts_voice: ttsVoice } : {}) }, true);

type Props = {
	value: VoiceFields;
	models: Pick<ModelRow, "name" | "provider">[];
	errors: FieldErrors<VoiceFields>;
	/** The saved agent a sample is made for; null while it is new. */
	agent: string | null;
	onChange: (key: keyof VoiceFields, value: string) => void;
	preview?: typeof previewVoice;
};

type ModelField = Exclude<keyof VoiceFields, "tts_voice">;
const CHOICES: Record<ModelField, { label: string; hint: string }> = {
	stt_model: { label: "Model that writes down speech", hint: "Turns voice notes and recordings into text. Empty: the usual speech-to-text model of the agent's provider." },
	tts_model: { label: "Model that speaks", hint: "Reads the agent's words out loud. It may come from another provider than the agent's own model." },
	image_model: { label: "Model that makes images", hint: "Draws the pictures the agent is asked for. Empty: the usual image model of the agent's provider." },
};

/** Which models listen, speak and draw for the agent, its voice, and a sample to hear it. */
export function VoiceSection({ value, models, errors, agent, onChange, preview = previewVoice }: Props) {
	const [sample, setSample] = useState<Sample | null>(null);
	const [making, setMaking] = useState(false);
	const [problem, setProblem] = useState<string | null>(null);
	const play = async () => {
		if (!agent) return;
		setMaking(true);
		setProblem(null);
		try {
			setSample(await preview(agent, value.tts_model, value.tts_voice.trim()));
		} catch (error) {
			setSample(null);
			setProblem(`No sample could be made: ${(error as Error).message}`);
		} finally {
			setMaking(false);
		}
	};
	const choice = (key: ModelField) => (
		<Field label={CHOICES[key].label} hint={CHOICES[key].hint} error={errors[key]}>
			{(props) => (
				<Select value={value[key]} onChange={(e) => onChange(key, e.target.value)} {...props}>
					<option value="">The provider's usual one</option>
					{models.map((m) => (
						<option key={m.name} value={m.name}>{`${m.name} (${m.provider})`}</option>
					))}
				</Select>
			)}
		</Field>
	);
	return (
		<div className="grid gap-4">
			{choice("stt_model")}
			<div className="grid gap-4 sm:grid-cols-2">
				{choice("tts_model")}
				<Field label="Voice" hint="The voice's name at that provider, such as alloy or nova. Empty: the model's usual voice." error={errors.tts_voice}>
					{(props) => <Input value={value.tts_voice} maxLength={140} onChange={(e) => onChange("tts_voice", e.target.value)} {...props} />}
				</Field>
			</div>
			<div className="grid gap-2">
				<div className="flex flex-wrap items-center gap-3">
					<Button variant="outline" size="sm" disabled={!agent || making} aria-describedby={agent ? undefined : "voice-sample-hint"} onClick={() => void play()}>
						{making ? <Loader2 className="h-4 w-4 animate-spin" aria-hidden /> : <Volume2 className="h-4 w-4" aria-hidden />}
						Play a sample
					</Button>
					<span role="status" className="text-xs text-slate-600">
						{making ? "Making a sample…" : ""}
					</span>
				</div>
				{agent ? null : (
					<p id="voice-sample-hint" className="text-xs text-slate-500">
						Save the agent first to hear a sample.
					</p>
				)}
				{problem ? (
					<p role="alert" className="text-sm text-red-700">
						{problem}
					</p>
				) : null}
				{sample ? <audio key={sample.file_url} controls autoPlay src={sample.file_url} aria-label="Voice sample" className="w-full max-w-md" /> : null}
			</div>
			{choice("image_model")}
		</div>
	);
}
