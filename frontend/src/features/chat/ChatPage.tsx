import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Brain, Plus } from "lucide-react";
import { lazy, Suspense, useEffect, useRef, useState } from "react";
import { Link, NavLink, useLocation, useNavigate, useParams, useSearchParams } from "react-router";
import { Button } from "../../components/ui/button";
import { Select } from "../../components/ui/field";
import { ErrorNote, Loading } from "../../components/ui/status";
import { cn } from "../../lib/cn";
import { useMe } from "../../lib/me";
import { subscribe } from "../../lib/realtime";
import { checklistKey, startApi } from "../start/api";
import { chatApi } from "./api";
import { ChatView, useMessagePages } from "./ChatView";
import { MemoryPanel } from "./MemoryPanel";

const chatPath = (agent: string, conversation?: string | null) => `/chat/${encodeURIComponent(agent)}${conversation ? `/${encodeURIComponent(conversation)}` : ""}`;
const LAST_AGENT = "huf_chat_agent"; // the agent chosen last time, in this browser
// The first-screen guide, loaded only on a site that is not set up yet.
const GettingStarted = lazy(() => import("../start/GettingStarted"));
const StartBar = lazy(() => import("../start/GettingStarted").then((module) => ({ default: module.StartBar })));

/** Chat at /chat/<agent>/<conversation>. Links from elsewhere (the Desk, the old try-out address) may
 * name them as ?agent=…&conversation=… instead; without an agent, the one chosen last time opens. */
export function ChatPage() {
	const { agent, conversation } = useParams();
	const [search] = useSearchParams();
	const navigate = useNavigate();
	const queryClient = useQueryClient();
	const me = useMe();
	const agents = useQuery({ queryKey: ["chat-agents"], queryFn: chatApi.agents });
	const current = agents.data?.find((a) => a.name === agent);
	const [memoryOpen, setMemoryOpen] = useState(false);
	const memoryToggle = useRef<HTMLButtonElement>(null);
	const conversations = useQuery({ queryKey: ["conversations", agent], queryFn: () => chatApi.conversations(agent ?? ""), enabled: Boolean(current) });
	const mine = useMessagePages(current && conversation ? conversation : null, false).data?.pages[0]?.mine ?? false; // a manager may open someone else's chat
	// The guide: for who may add providers until the first chat; for anyone with no agent to chat with.
	// Read again each time the chat opens (a provider, a model or an agent was just added elsewhere),
	// until every step is done: then the guide is gone and there is nothing left to read again.
	const setsUp = Boolean(me.data?.capabilities["provider.write"]);
	const checklist = useQuery({
		queryKey: checklistKey,
		queryFn: startApi.checklist,
		enabled: setsUp || agents.data?.length === 0,
		staleTime: (query) => (query.state.data?.done ? Infinity : 0),
	});

	const here = useLocation().pathname;
	useEffect(() => {
		const names = agents.data?.map((a) => a.name) ?? [];
		if (agent || !names.length) return;
		// The chat stays on screen while the next page loads: a person who went elsewhere before the
		// agents came is not taken back to one (the address bar already shows where they went).
		if (window.location.pathname.startsWith("/huf/") && !window.location.pathname.endsWith(here)) return;
		const asked = search.get("agent") || null;
		const last = localStorage.getItem(LAST_AGENT);
		const chosen = asked ?? (last && names.includes(last) ? last : names[0]);
		if (chosen) navigate(chatPath(chosen, asked && search.get("conversation")), { replace: true });
	}, [agent, agents.data, search, navigate, here]);
	useEffect(() => {
		if (current) localStorage.setItem(LAST_AGENT, current.name);
	}, [current]);
	// An agent came since the agents were read (the example got its model when the model was saved).
	const agentReady = checklist.data?.steps.some((step) => step.step === "agent" && step.done);
	useEffect(() => {
		if (agentReady && agents.data?.length === 0) void queryClient.invalidateQueries({ queryKey: ["chat-agents"] });
	}, [agentReady, agents.data, queryClient]);
	// A new conversation is named in the background, after its first answer.
	useEffect(() => subscribe("agent_conversation_title", () => void queryClient.invalidateQueries({ queryKey: ["conversations"] })), [queryClient]);

	if (agents.isPending) return <Loading label="Loading your agents…" />;
	if (agents.isError) return <ErrorNote error={agents.error} />;
	if (!agents.data.length) {
		if (checklist.isPending) return <Loading />;
		if (checklist.isError) return <ErrorNote error={checklist.error} />;
		return (
			<Suspense fallback={<Loading />}>
				<GettingStarted checklist={checklist.data} />
			</Suspense>
		);
	}
	if (!agent) return <Loading />;
	const title = conversations.data?.find((c) => c.name === conversation)?.title;
	const memory = current?.conversation_memory && conversation && mine ? conversation : null; // the conversation whose memory can be shown
	const closeMemory = () => {
		setMemoryOpen(false);
		memoryToggle.current?.focus();
	};

	const onConversation = (started: string) => {
		navigate(chatPath(agent, started), { replace: true });
		if (setsUp) void queryClient.invalidateQueries({ queryKey: checklistKey }); // a first chat: the guide goes
	};

	return (
		<div className="flex h-[calc(100vh-3.25rem)] flex-col md:h-screen">
			{setsUp && checklist.data && !checklist.data.done ? (
				<Suspense fallback={null}>
					<StartBar checklist={checklist.data} agent={agent} />
				</Suspense>
			) : null}
			<div className="flex min-h-0 flex-1 flex-col md:flex-row">
				<aside aria-label="Conversations" className={cn("flex shrink-0 flex-col gap-2 border-b border-slate-200 bg-white p-3 md:w-64 md:border-b-0 md:border-r", conversation && "hidden md:flex")}>
					<label htmlFor="chat-agent" className="text-xs font-semibold uppercase tracking-wide text-slate-500">
						Agent
					</label>
					<Select id="chat-agent" value={agent} onChange={(event) => navigate(chatPath(event.target.value))}>
						{agents.data.map((a) => (
							<option key={a.name} value={a.name}>
								{a.name}
							</option>
						))}
					</Select>
					<Button variant="outline" onClick={() => navigate(chatPath(agent))}>
						<Plus className="h-4 w-4" aria-hidden />
						New conversation
					</Button>
					<nav aria-label="Your conversations" className="max-h-40 overflow-y-auto md:max-h-none md:flex-1">
						{conversations.isLoading ? <Loading /> : null}
						{conversations.isError ? <ErrorNote error={conversations.error} /> : null}
						<ul className="grid grid-cols-1 gap-0.5">
							{conversations.data?.map((c) => (
								<li key={c.name}>
									<NavLink
										to={chatPath(agent, c.name)}
										className={({ isActive }) => cn("block truncate rounded-md px-2 py-1.5 text-sm text-slate-700 hover:bg-slate-100 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-blue-500", isActive && "bg-blue-50 font-medium text-blue-800")}
									>
										{c.title || "Untitled conversation"}
									</NavLink>
								</li>
							))}
						</ul>
					</nav>
				</aside>
				<section aria-label={`Chat with ${agent}`} className="flex min-h-0 min-w-0 flex-1 flex-col">
					<header className="flex items-center gap-2 border-b border-slate-200 bg-white px-4 py-2">
						{conversation ? (
							<Button variant="ghost" size="sm" className="shrink-0 whitespace-nowrap md:hidden" onClick={() => navigate(chatPath(agent))}>
								All conversations
							</Button>
						) : null}
						<h1 className="min-w-0 max-w-[60%] truncate text-base font-semibold">{agent}</h1>
						{title ? <p className="min-w-0 shrink-[100] truncate text-sm text-slate-600">· {title}</p> : null /* it gives way before the name */}
						{memory ? (
							<Button ref={memoryToggle} variant={memoryOpen ? "default" : "outline"} size="sm" className="ml-auto shrink-0" aria-expanded={memoryOpen} aria-controls="chat-memory" onClick={() => setMemoryOpen(!memoryOpen)}>
								<Brain className="h-4 w-4" aria-hidden />
								<span className="sr-only sm:not-sr-only">Memory</span>
							</Button>
						) : null}
					</header>
					{current ? (
						<div className="relative flex min-h-0 flex-1">
							<div className="min-w-0 flex-1">
								<ChatView agent={agent} allowFiles={Boolean(current.allow_file_attachments)} conversation={conversation ?? null} onConversation={onConversation} />
							</div>
							{memory && memoryOpen ? <MemoryPanel id="chat-memory" conversation={memory} onClose={closeMemory} /> : null}
						</div>
					) : (
						<div className="grid gap-2 p-4">
							<ErrorNote error={`You can't chat with “${agent}”: it doesn't exist, isn't open for chat, or isn't shared with you.`} />
							{me.data?.capabilities["agent.write"] ? (
								<Link className="text-sm text-blue-700 underline" to={`/agents/${encodeURIComponent(agent)}`}>
									Open {agent}'s settings to try it or open it for chat
								</Link>
							) : null}
						</div>
					)}
				</section>
			</div>
		</div>
	);
}
