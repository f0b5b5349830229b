import { Loader2, Mic, Square } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { Button } from "../../components/ui/button";
import { uploadFile, type UploadedFile } from "../../lib/api";
import { chatApi, type Transcript } from "./api";

const MAX_SECONDS = 300; // a voice note stops by itself after five minutes
export const NOTHING_HEARD = "Couldn't hear anything — try again.";

type Step = "idle" | "starting" | "recording" | "working";

/** Whether this browser can record (a page served over plain http from another machine cannot). */
export function canRecord(): boolean {
	return typeof MediaRecorder !== "undefined" && typeof navigator !== "undefined" && Boolean(navigator.mediaDevices?.getUserMedia);
}

function microphoneProblem(error: unknown): string {
	const name = error instanceof DOMException || error instanceof Error ? error.name : "";
	if (name === "NotAllowedError" || name === "SecurityError") return "Your browser blocked the microphone. Allow microphone access for this site (the icon in the address bar), then try again.";
	if (name === "NotFoundError" || name === "OverconstrainedError") return "No microphone was found. Connect one and try again.";
	if (name === "NotReadableError") return "The microphone is busy in another app. Close that app and try again.";
	return "The microphone could not be started. Try again.";
}

const clock = (seconds: number) => `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;

type VoiceOptions = {
	agent: string;
	/** What was heard, to put in the message box for the person to check before sending. */
	onText: (text: string) => void;
	upload?: (file: File) => Promise<UploadedFile>;
	transcribe?: (fileUrl: string, language: string, agent: string) => Promise<Transcript>;
};
export type VoiceNote = { step: Step; seconds: number; problem: string | null; toggle: () => void };

/** A voice note: recorded, uploaded as the person's private file, written down by the agent's
 * speech-to-text model, and handed to `onText`. */
export function useVoiceNote({ agent, onText, upload = uploadFile, transcribe = chatApi.transcribe }: VoiceOptions): VoiceNote {
	const [step, setStep] = useState<Step>("idle");
	const [seconds, setSeconds] = useState(0);
	const [problem, setProblem] = useState<string | null>(null);
	const recorder = useRef<MediaRecorder | null>(null);

	useEffect(() => {
		if (step !== "recording") return;
		const timer = window.setInterval(() => setSeconds((s) => s + 1), 1000);
		return () => window.clearInterval(timer);
	}, [step]);
	useEffect(() => {
		if (step === "recording" && seconds >= MAX_SECONDS) recorder.current?.stop();
	}, [step, seconds]);
	useEffect(() => () => recorder.current?.stream.getTracks().forEach((track) => track.stop()), []); // leaving the page lets go of the microphone

	const hear = async (audio: Blob) => {
		if (!audio.size) throw new Error(NOTHING_HEARD);
		const stamp = new Date().toISOString().replace(/\D/g, "").slice(0, 14);
		const uploaded = await upload(new File([audio], `voice-note-${stamp}.webm`, { type: audio.type || "audio/webm" }));
		const heard = await transcribe(uploaded.file_url, (navigator.language || "en").split("-")[0] ?? "en", agent);
		if (!heard.success) throw new Error(`Your voice note couldn't be written down. ${heard.error ?? ""}`.trim());
		if (!heard.text.trim()) throw new Error(NOTHING_HEARD);
		onText(heard.text.trim());
	};

	const start = async () => {
		setProblem(null);
		setStep("starting");
		let stream: MediaStream;
		try {
			stream = await navigator.mediaDevices.getUserMedia({ audio: true });
		} catch (error) {
			setProblem(microphoneProblem(error));
			setStep("idle");
			return;
		}
		const type = MediaRecorder.isTypeSupported?.("audio/webm") ? "audio/webm" : "";
		const rec = new MediaRecorder(stream, type ? { mimeType: type } : undefined);
		const pieces: Blob[] = [];
		rec.ondataavailable = (event) => {
			if (event.data.size) pieces.push(event.data);
		};
		rec.onstop = () => {
			stream.getTracks().forEach((track) => track.stop());
			recorder.current = null;
			setStep("working");
			hear(new Blob(pieces, { type: rec.mimeType || type || "audio/webm" }))
				.catch((error: Error) => setProblem(error.message))
				.finally(() => setStep("idle"));
		};
		recorder.current = rec;
		rec.start();
		setSeconds(0);
		setStep("recording");
	};

	const toggle = () => {
		if (step === "recording") recorder.current?.stop();
		else if (step === "idle") void start();
	};
	return { step, seconds, problem, toggle };
}

/** Speak / Stop recording. Never disabled while it works (a disabled button drops the keyboard's
 * focus): it says it is busy and ignores presses instead, so the same key stops what it started. */
export function VoiceButton({ voice }: { voice: VoiceNote }) {
	const recording = voice.step === "recording";
	const busy = voice.step === "starting" || voice.step === "working";
	return (
		<Button
			variant={recording ? "danger" : "ghost"}
			size="icon"
			aria-label={recording ? "Stop recording" : "Speak"}
			title={recording ? "Stop recording" : "Speak instead of typing"}
			aria-disabled={busy}
			className={busy ? "cursor-wait opacity-50" : undefined}
			onClick={voice.toggle}
		>
			{recording ? <Square className="h-4 w-4" aria-hidden /> : voice.step === "working" ? <Loader2 className="h-4 w-4 animate-spin" aria-hidden /> : <Mic className="h-4 w-4" aria-hidden />}
		</Button>
	);
}

/** What the voice note is doing (announced as it changes), and what went wrong. */
export function VoiceStatus({ voice }: { voice: VoiceNote }) {
	const doing = voice.step === "recording" ? `Recording… ${clock(voice.seconds)}` : voice.step === "working" ? "Writing down what you said…" : "";
	return (
		<>
			<p role="status" className="text-xs text-slate-600">
				{doing}
			</p>
			{voice.problem ? (
				<p role="alert" className="text-xs text-red-700">
					{voice.problem}
				</p>
			) : null}
		</>
	);
}
