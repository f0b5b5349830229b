import { Loader2, Paperclip, Send, Square, X } from "lucide-react";
import { useRef, useState, type KeyboardEvent } from "react";
import { Button } from "../../components/ui/button";
import { uploadFile, type UploadedFile } from "../../lib/api";
import type { Transcript } from "./api";
import { canRecord, useVoiceNote, VoiceButton, VoiceStatus } from "./VoiceButton";

// What the server can read (huf/ai/engine/attachments.py).
const ACCEPT = "image/png,image/jpeg,image/gif,image/webp,.pdf,.docx,.xlsx,.pptx,.txt,.md,.markdown,.csv,.tsv,.json,.xml,.html,.htm,.log,.yaml,.yml";
const MAX_FILES = 5;

type ComposerProps = {
	busy: boolean;
	stopping?: boolean;
	onSend: (text: string, files: UploadedFile[]) => void;
	onStop: () => void;
	agent: string;
	allowFiles?: boolean;
	/** Offer Speak (a voice note written down into the message box) where the browser can record. */
	allowVoice?: boolean;
	upload?: (file: File) => Promise<UploadedFile>;
	transcribe?: (fileUrl: string, language: string, agent: string) => Promise<Transcript>;
};

/** Enter sends, Shift+Enter starts a new line. While an answer is being written, Stop replaces Send. */
export function Composer({ busy, stopping = false, onSend, onStop, agent, allowFiles = false, allowVoice = false, upload = uploadFile, transcribe }: ComposerProps) {
	const [text, setText] = useState("");
	const [files, setFiles] = useState<UploadedFile[]>([]);
	const [uploading, setUploading] = useState(0);
	const [fileError, setFileError] = useState<string | null>(null);
	const picker = useRef<HTMLInputElement>(null);
	const box = useRef<HTMLTextAreaElement>(null);
	// What was heard goes after what is typed, and the box takes focus to check it before sending.
	const onText = (heard: string) => {
		setText((current) => (current.trim() ? `${current.trimEnd()} ${heard}` : heard));
		box.current?.focus();
	};
	const voice = useVoiceNote({ agent, onText, upload, ...(transcribe ? { transcribe } : {}) });
	const listening = voice.step !== "idle";
	const voiced = allowVoice && canRecord();

	const send = () => {
		const message = text.trim();
		if (!message || busy || uploading || listening) return;
		onSend(message, files);
		setText("");
		setFiles([]);
	};
	const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
		if (event.key === "Enter" && !event.shiftKey && !event.nativeEvent.isComposing) {
			event.preventDefault();
			send();
		}
	};
	const attach = async (chosen: File[]) => {
		setFileError(null);
		if (files.length + chosen.length > MAX_FILES) {
			setFileError(`Attach at most ${MAX_FILES} files to one message.`);
			return;
		}
		setUploading((n) => n + chosen.length);
		for (const file of chosen) {
			try {
				const uploaded = await upload(file);
				setFiles((current) => [...current, uploaded]);
			} catch (error) {
				setFileError(`${file.name}: ${(error as Error).message}`);
			} finally {
				setUploading((n) => n - 1);
			}
		}
	};

	return (
		<form
			className="grid gap-2 border-t border-slate-200 bg-white p-3"
			onSubmit={(event) => {
				event.preventDefault();
				send();
			}}
		>
			{files.length || uploading || fileError ? (
				<div className="flex flex-wrap items-center gap-1.5" aria-live="polite">
					{files.map((file) => (
						<span key={file.name} className="flex items-center gap-1 rounded-full bg-slate-100 py-0.5 pl-3 pr-1 text-xs">
							{file.file_name}
							<button type="button" className="rounded-full p-0.5 hover:bg-slate-200 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-blue-500" aria-label={`Remove ${file.file_name}`} onClick={() => setFiles((current) => current.filter((f) => f.name !== file.name))}>
								<X className="h-3 w-3" aria-hidden />
							</button>
						</span>
					))}
					{uploading ? (
						<span role="status" className="flex items-center gap-1 text-xs text-slate-600">
							<Loader2 className="h-3 w-3 animate-spin" aria-hidden /> Uploading…
						</span>
					) : null}
					{fileError ? (
						<span role="alert" className="text-xs text-red-700">
							{fileError}
						</span>
					) : null}
				</div>
			) : null}
			<div className="flex items-end gap-2">
				{allowFiles ? (
					<>
						<input
							ref={picker}
							type="file"
							multiple
							accept={ACCEPT}
							className="sr-only"
							tabIndex={-1}
							aria-hidden
							data-testid="attach-input"
							onChange={(event) => {
								void attach(Array.from(event.target.files ?? []));
								event.target.value = "";
							}}
						/>
						<Button variant="ghost" size="icon" aria-label="Attach files (images, PDF, Office or text)" title="Attach files (images, PDF, Office or text)" onClick={() => picker.current?.click()}>
							<Paperclip className="h-4 w-4" aria-hidden />
						</Button>
					</>
				) : null}
				{voiced ? <VoiceButton voice={voice} /> : null}
				<label htmlFor="chat-composer" className="sr-only">
					Message to {agent}
				</label>
				<textarea
					ref={box}
					id="chat-composer"
					rows={2}
					value={text}
					onChange={(event) => setText(event.target.value)}
					onKeyDown={onKeyDown}
					placeholder={`Message ${agent}…`}
					aria-describedby="chat-composer-hint"
					className="max-h-48 min-h-[2.5rem] min-w-0 flex-1 resize-y rounded-md border border-slate-300 px-3 py-2 text-sm focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-blue-500"
				/>
				{busy ? (
					<Button variant="outline" onClick={onStop} disabled={stopping}>
						<Square className="h-4 w-4" aria-hidden />
						{stopping ? "Stopping…" : "Stop"}
					</Button>
				) : (
					<Button type="submit" disabled={!text.trim() || uploading > 0 || listening}>
						<Send className="h-4 w-4" aria-hidden />
						Send
					</Button>
				)}
			</div>
			<div className="flex flex-wrap items-center gap-x-3 gap-y-1">
				{voiced ? <VoiceStatus voice={voice} /> : null}
				<p id="chat-composer-hint" className="hidden text-xs text-slate-500 md:block">
					Enter sends · Shift+Enter starts a new line
				</p>
			</div>
		</form>
	);
}
