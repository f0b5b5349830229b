import { useInfiniteQuery, useQueryClient } from "@tanstack/react-query";
import { Paperclip } from "lucide-react";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { Button } from "../../components/ui/button";
import { ErrorNote, Loading } from "../../components/ui/status";
import { useMe } from "../../lib/me";
import { RunStream } from "../../lib/sse";
import { chatApi, memoryKey } from "./api";
import { Answer } from "./Answer";
import { Composer } from "./Composer";
import { applyEvent, approvalsFrom, attentionFrom, itemsFromMessages, newAnswer, type AnswerItem, type ChatItem, type FileRef } from "./state";

type Live = { user: string | null; files: FileRef[]; answer: AnswerItem };
type ChatViewProps = { agent: string; allowFiles: boolean; conversation: string | null; onConversation: (conversation: string) => void };

/** A conversation's messages, newest page first; the chat page reads the same query (whose it is). */
export function useMessagePages(conversation: string | null, refetchOnWindowFocus = true) {
	return useInfiniteQuery({
		queryKey: ["messages", conversation],
		queryFn: ({ pageParam }) => chatApi.messages(conversation ?? "", pageParam),
		initialPageParam: undefined as number | undefined,
		getNextPageParam: (last) => (last.has_more ? last.messages[0]?.sequence : undefined),
		enabled: Boolean(conversation),
		refetchOnWindowFocus,
	});
}

export function ChatView({ agent, allowFiles, conversation, onConversation }: ChatViewProps) {
	const linkRun = useMe().data?.capabilities["run.read"] ?? false;
	const queryClient = useQueryClient();
	const [live, setLive] = useState<Live | null>(null);
	const [reconnecting, setReconnecting] = useState(false);
	const [stopping, setStopping] = useState<string | null>(null); // the run asked to stop
	const stream = useRef<RunStream | null>(null);
	const adopted = useRef<string | null>(null); // a conversation this view just started: keep the live answer
	const logEnd = useRef<HTMLDivElement>(null);

	const pages = useMessagePages(conversation, !live);

	const follow = useCallback(
		(run: string, conv: string) => {
			stream.current?.close();
			const follower = new RunStream({
				onEvent: (event, data) => {
					setReconnecting(false);
					setLive((current) => current && { ...current, answer: applyEvent(current.answer, event, data) });
				},
				onError: (message) => setLive((current) => current && { ...current, answer: { ...current.answer, status: "failed", error: message } }),
				onReconnecting: () => setReconnecting(true),
				onEnd: () => {
					setReconnecting(false);
					void queryClient.invalidateQueries({ queryKey: ["conversations", agent] });
					void queryClient.invalidateQueries({ queryKey: memoryKey(conv) }); // the agent may have saved something
					if (!follower.finished) return; // lost for good: keep what was shown, with its error
					void queryClient.invalidateQueries({ queryKey: ["messages", conv] }).then(() => setLive((current) => (current?.answer.run === run ? null : current))); // a newer answer may be live by now
				},
			});
			stream.current = follower;
			void follower.attach(run);
		},
		[agent, queryClient],
	);

	// Switching conversations stops listening (the run goes on) unless this view just started it.
	useEffect(() => {
		if (conversation && conversation === adopted.current) return;
		stream.current?.close();
		setLive(null);
	}, [conversation, agent]);
	useEffect(() => () => stream.current?.close(), []);

	// A run still going when the page opens (a closed tab, a reload): pick it up again.
	const activeRun = pages.data?.pages[0]?.active_run ?? null;
	const awaiting = pages.data?.pages[0]?.awaiting_approval;
	const stopped = pages.data?.pages[0]?.needs_attention;
	useEffect(() => {
		if (activeRun && conversation && !live) {
			setLive({ user: null, files: [], answer: { ...newAnswer("live", activeRun), approvals: approvalsFrom(awaiting), attention: attentionFrom(stopped) } });
			follow(activeRun, conversation);
		}
	}, [activeRun, awaiting, stopped, conversation, live, follow]);

	const send = async (text: string, files: FileRef[] = []) => {
		setLive({ user: text, files, answer: newAnswer("live") });
		try {
			const queued = await chatApi.send(agent, text, conversation, files.map((f) => f.file));
			setLive((current) => current && { ...current, answer: { ...current.answer, run: queued.run } });
			if (queued.conversation !== conversation) {
				adopted.current = queued.conversation;
				onConversation(queued.conversation);
			}
			follow(queued.run, queued.conversation);
		} catch (error) {
			setLive((current) => current && { ...current, answer: { ...current.answer, status: "failed", error: (error as Error).message } });
		}
	};

	const stop = async () => {
		const run = live?.answer.run;
		if (!run) return;
		setStopping(run);
		try {
			await chatApi.cancel(run);
		} catch (error) {
			setStopping(null);
			setLive((current) => current && { ...current, answer: { ...current.answer, error: `It could not be stopped: ${(error as Error).message}` } });
		}
	};

	const items: ChatItem[] = useMemo(() => {
		const loaded = [...(pages.data?.pages ?? [])].reverse();
		const history = itemsFromMessages(
			loaded.flatMap((page) => page.messages),
			Object.assign({}, ...loaded.map((page) => page.runs)),
		);
		const liveRun = live?.answer.run;
		return liveRun ? history.filter((item) => item.run !== liveRun || (item.kind === "user" && !live.user)) : history;
	}, [pages.data, live]);

	const lastText = [...items].reverse().find((item) => item.kind === "user")?.text ?? null;
	const retryText = live?.user ?? lastText;
	const last = live?.answer ?? (items[items.length - 1]?.kind === "answer" ? (items[items.length - 1] as AnswerItem) : null);
	const canRetry = Boolean(retryText && last && (last.status === "failed" || last.status === "cancelled"));
	const busy = live?.answer.status === "running";

	useEffect(() => {
		void logEnd.current?.scrollIntoView({ block: "end" }); // newer browsers return a promise here; an effect must not
	}, [items.length, live?.answer.text]);

	return (
		<div className="flex h-full min-h-0 flex-col">
			<div role="log" aria-live="polite" aria-label="Conversation" className="flex-1 space-y-4 overflow-y-auto p-4">
				{pages.hasNextPage ? (
					<div className="text-center">
						<Button variant="ghost" size="sm" onClick={() => void pages.fetchNextPage()} disabled={pages.isFetchingNextPage}>
							Show earlier messages
						</Button>
					</div>
				) : null}
				{pages.isPending && conversation ? <Loading label="Loading the conversation…" /> : null}
				{pages.isError ? <ErrorNote error={pages.error} /> : null}
				{!conversation && !live ? <p className="text-center text-sm text-slate-500">Ask {agent} anything to start a new conversation.</p> : null}
				{items.map((item) =>
					item.kind === "user" ? (
						<UserBubble key={item.key} text={item.text} files={item.attachments} />
					) : (
						<Answer key={item.key} answer={item} linkRun={linkRun} onRetry={!live && item === last && canRetry && retryText ? () => void send(retryText) : undefined} />
					),
				)}
				{live ? (
					<>
						{live.user ? <UserBubble text={live.user} files={live.files} /> : null}
						<Answer answer={live.answer} linkRun={linkRun} onRetry={canRetry && retryText ? () => void send(retryText) : undefined} />
					</>
				) : null}
				{reconnecting ? (
					<p role="status" className="text-xs text-amber-700">
						Connection lost, reconnecting…
					</p>
				) : null}
				<div ref={logEnd} />
			</div>
			<Composer agent={agent} allowFiles={allowFiles} allowVoice busy={busy} stopping={busy && stopping !== null && stopping === live?.answer.run} onSend={(text, files) => void send(text, files.map((f) => ({ file: f.name, file_name: f.file_name, file_url: f.file_url })))} onStop={() => void stop()} />
		</div>
	);
}

function UserBubble({ text, files }: { text: string; files: FileRef[] }) {
	return (
		<div className="grid justify-items-end gap-1">
			<p className="min-w-0 max-w-[85%] whitespace-pre-wrap rounded-lg bg-blue-600 px-4 py-2 text-sm text-white [overflow-wrap:anywhere]" data-testid="user-message">
				{text}
			</p>
			{files.length ? (
				<ul className="flex flex-wrap justify-end gap-1" aria-label="Attached files">
					{files.map((file) => (
						<li key={file.file}>
							<a href={file.file_url} target="_blank" rel="noopener noreferrer" className="inline-flex items-center gap-1 rounded-full border border-slate-200 bg-white px-2 py-0.5 text-xs text-slate-700 hover:bg-slate-50">
								<Paperclip className="h-3 w-3" aria-hidden />
								{file.file_name}
							</a>
						</li>
					))}
				</ul>
			) : null}
		</div>
	);
}
