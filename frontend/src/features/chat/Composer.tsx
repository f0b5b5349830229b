import { Send, Square } from "lucide-react";
import { useState, type KeyboardEvent } from "react";
import { Button } from "../../components/ui/button";

type ComposerProps = { busy: boolean; onSend: (text: string) => void; onStop: () => void; agent: string };

/** Enter sends, Shift+Enter starts a new line. While an answer is being written, Stop replaces Send. */
export function Composer({ busy, onSend, onStop, agent }: ComposerProps) {
	const [text, setText] = useState("");
	const send = () => {
		const message = text.trim();
		if (!message || busy) return;
		onSend(message);
		setText("");
	};
	const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
		if (event.key === "Enter" && !event.shiftKey && !event.nativeEvent.isComposing) {
			event.preventDefault();
			send();
		}
	};
	return (
		<form
			className="flex items-end gap-2 border-t border-slate-200 bg-white p-3"
			onSubmit={(event) => {
				event.preventDefault();
				send();
			}}
		>
			<label htmlFor="chat-composer" className="sr-only">
				Message to {agent}
			</label>
			<textarea
				id="chat-composer"
				rows={2}
				value={text}
				onChange={(event) => setText(event.target.value)}
				onKeyDown={onKeyDown}
				placeholder={`Message ${agent}… (Enter to send, Shift+Enter for a new line)`}
				className="max-h-48 min-h-[2.5rem] flex-1 resize-y rounded-md border border-slate-300 px-3 py-2 text-sm focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-blue-500"
			/>
			{busy ? (
				<Button variant="outline" onClick={onStop}>
					<Square className="h-4 w-4" aria-hidden />
					Stop
				</Button>
			) : (
				<Button type="submit" disabled={!text.trim()}>
					<Send className="h-4 w-4" aria-hidden />
					Send
				</Button>
			)}
		</form>
	);
}
