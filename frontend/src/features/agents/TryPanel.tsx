import { useEffect, useRef, useState } from "react";
import { RunStream } from "../../lib/sse";
import { Answer } from "../chat/Answer";
import { chatApi } from "../chat/api";
import { Composer } from "../chat/Composer";
import { applyEvent, newAnswer, type AnswerItem } from "../chat/state";

type Turn = { question: string; answer: AnswerItem };

/** Try the saved agent beside its editor. The answers stream in exactly as they would in chat. */
export function TryPanel({ agent, dirty }: { agent: string | null; dirty: boolean }) {
	const [turns, setTurns] = useState<Turn[]>([]);
	const conversation = useRef<string | null>(null);
	const stream = useRef<RunStream | null>(null);
	useEffect(() => () => stream.current?.close(), []);

	const update = (change: (answer: AnswerItem) => AnswerItem) =>
		setTurns((current) => current.map((turn, index) => (index === current.length - 1 ? { ...turn, answer: change(turn.answer) } : turn)));

	const send = (question: string) => {
		if (!agent) return;
		setTurns((current) => [...current, { question, answer: newAnswer(`try-${current.length}`) }]);
		const follower = new RunStream({
			onEvent: (event, data) => {
				if (typeof data.conversation === "string") conversation.current = data.conversation;
				update((answer) => applyEvent(answer, event, data));
			},
			onError: (message) => update((answer) => ({ ...answer, status: "failed", error: message })),
			onEnd: () => undefined,
		});
		stream.current = follower;
		void follower.start(agent, { prompt: question, channel_id: "try", ...(conversation.current ? { conversation_id: conversation.current } : {}) });
	};

	const last = turns[turns.length - 1]?.answer;
	return (
		<section aria-label="Try this agent" className="flex h-[32rem] flex-col overflow-hidden rounded-lg border border-slate-200 bg-white xl:h-full">
			<header className="border-b border-slate-200 px-4 py-2">
				<h2 className="text-base font-semibold">Try it</h2>
				<p className="text-xs text-slate-600">{!agent ? "Save the agent to try it here." : dirty ? "Save your changes to try them; this uses the saved version." : "Ask something to see how the agent answers."}</p>
			</header>
			<div role="log" aria-live="polite" className="flex-1 space-y-3 overflow-y-auto p-3">
				{turns.map((turn) => (
					<div key={turn.answer.key} className="grid gap-2">
						<p className="justify-self-end whitespace-pre-wrap rounded-lg bg-blue-600 px-3 py-1.5 text-sm text-white">{turn.question}</p>
						<Answer answer={turn.answer} />
					</div>
				))}
			</div>
			{agent ? (
				<Composer
					agent={agent}
					busy={last?.status === "running"}
					onSend={send}
					onStop={() => {
						if (last?.run) void chatApi.cancel(last.run);
					}}
				/>
			) : null}
		</section>
	);
}
