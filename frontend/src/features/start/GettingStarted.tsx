// The chat page's first screen on a site that is not set up yet (loaded on demand): for someone who
// may add providers, the way to a first chat in four steps, each saying what is missing and linking to
// where to do it, with Huf's example one click away; for anyone else, who can set an agent up.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { CheckCircle2 } from "lucide-react";
import { useId } from "react";
import { Link } from "react-router";
import { Button } from "../../components/ui/button";
import { Empty, ErrorNote } from "../../components/ui/status";
import { useCan } from "../../lib/me";
import { checklistKey, nextStep, startApi, type Checklist, type ExampleState, type Step, type StepName } from "./api";

type Copy = { title: string; done: (name: string) => string; missing: string; link?: { to: string; label: string } };

const COPY: Record<StepName, Copy> = {
	provider: {
		title: "Add a provider",
		done: (name) => `Provider added: ${name}`,
		missing: "No provider yet. Connect Huf to the AI service your agents use, such as OpenAI or Anthropic, with its API key.",
		link: { to: "/providers", label: "Go to Providers" },
	},
	model: {
		title: "Add a model",
		done: (name) => `Model added: ${name}`,
		missing: "No model yet. Add one of your provider's models, named exactly as the provider names it, for example gpt-4o-mini.",
		link: { to: "/providers", label: "Go to Providers" },
	},
	agent: {
		title: "Set up an agent",
		done: (name) => `Agent ready: ${name}`,
		missing: "No agent to chat with yet. Write what it should do, pick its model and tools, and tick “Open for chat”. Or add the example below.",
		link: { to: "/agents/new", label: "Create an agent" },
	},
	chat: {
		title: "Have a first chat",
		done: () => "First chat done",
		missing: "No chat yet. Write to your agent and read its answer.",
	},
};

type State = "done" | "next" | "later";
const STATE_WORDS: Record<State, string> = { done: "Done", next: "Next", later: "Not yet" };

function StepItem({ step, number, state }: { step: Step; number: number; state: State }) {
	const copy = COPY[step.step];
	return (
		<li aria-current={state === "next" ? "step" : undefined} className={`flex gap-3 rounded-lg border p-4 ${state === "next" ? "border-blue-300 bg-blue-50" : "border-slate-200 bg-white"}`}>
			{state === "done" ? (
				<CheckCircle2 className="mt-0.5 h-6 w-6 shrink-0 text-green-700" aria-hidden />
			) : (
				<span aria-hidden className={`grid h-6 w-6 shrink-0 place-items-center rounded-full text-xs font-semibold ${state === "next" ? "bg-blue-600 text-white" : "bg-slate-200 text-slate-700"}`}>
					{number}
				</span>
			)}
			<div className="grid min-w-0 flex-1 gap-1">
				<p className="font-medium text-slate-900 [overflow-wrap:anywhere]">{step.done ? copy.done(step.name ?? "") : copy.title}</p>
				{step.done ? null : <p className="text-sm text-slate-700">{copy.missing}</p>}
				{state === "next" && copy.link ? (
					<Button asChild size="sm" className="justify-self-start">
						<Link to={copy.link.to}>{copy.link.label}</Link>
					</Button>
				) : null}
			</div>
			<span className={`shrink-0 text-xs font-medium ${state === "done" ? "text-green-800" : state === "next" ? "text-blue-800" : "text-slate-600"}`}>{STATE_WORDS[state]}</span>
		</li>
	);
}

function Example({ example, model }: { example: ExampleState; model: string | null }) {
	const queryClient = useQueryClient();
	const heading = useId();
	const add = useMutation({
		mutationFn: startApi.addExample,
		onSuccess: () => Promise.all([queryClient.invalidateQueries({ queryKey: checklistKey }), queryClient.invalidateQueries({ queryKey: ["chat-agents"] })]),
	});
	const state = add.data ?? example;
	return (
		<section aria-labelledby={heading} className="grid gap-2 rounded-lg border border-slate-200 bg-white p-4">
			<h2 id={heading} className="text-base font-semibold">
				Or start from the example
			</h2>
			<p className="text-sm text-slate-700">
				Huf's example is an agent that answers questions about this site's tasks and notes, a knowledge source about Huf that it searches, and a small flow saved as a draft.
			</p>
			{state.added ? null : (
				<p className="text-sm text-slate-700">{model ? `The example agent uses your model ${model}.` : "It needs a provider and a model: add them, and the example agent is ready."}</p>
			)}
			<div aria-live="polite" className="grid gap-2 text-sm">
				{state.added ? (
					<p className="flex items-center gap-1 text-green-800">
						<CheckCircle2 className="h-4 w-4 shrink-0" aria-hidden />
						{state.agent ? `Example added: ${state.agent}` : state.waiting_for_model ? "Example added. Add a provider and a model, and the example agent is ready." : "Example added."}
					</p>
				) : null}
				{add.data?.problems.length ? <ErrorNote error={`Some of the example could not be added: ${add.data.problems.join("; ")}`} /> : null}
				{add.isError ? <ErrorNote error={add.error} /> : null}
			</div>
			{state.added ? null : (
				<Button variant="outline" className="justify-self-start" disabled={add.isPending} onClick={() => add.mutate()}>
					{add.isPending ? "Adding the example…" : "Add the example"}
				</Button>
			)}
		</section>
	);
}

function names(people: string[]): string {
	return people.length < 2 ? people.join("") : `${people.slice(0, -1).join(", ")} or ${people[people.length - 1]}`;
}

/** For someone who may not add providers and has no agent to chat with. */
function AskSomeone({ checklist }: { checklist: Checklist }) {
	const can = useCan();
	const modelReady = checklist.steps.some((step) => step.step === "model" && step.done);
	return (
		<div className="p-6">
			<Empty title="No agents to chat with yet">
				{can("agent.write") && modelReady ? (
					<>
						Create an agent and tick “Open for chat”.{" "}
						<Link className="text-blue-700 underline" to="/agents/new">
							Create an agent
						</Link>
					</>
				) : checklist.helpers.length ? (
					`Ask ${names(checklist.helpers)} to set one up for you.`
				) : (
					"Ask whoever looks after this site to set one up for you."
				)}
			</Empty>
		</div>
	);
}

/** The whole guide, in place of the chat while there is no agent to chat with. */
export default function GettingStarted({ checklist }: { checklist: Checklist }) {
	const heading = useId();
	if (!checklist.can_set_up) return <AskSomeone checklist={checklist} />;
	const next = nextStep(checklist);
	const model = checklist.steps.find((step) => step.step === "model")?.name ?? null;
	return (
		<section aria-labelledby={heading} className="mx-auto grid max-w-2xl grid-cols-1 gap-4 p-4 md:p-6">
			<header className="grid gap-1">
				<h1 id={heading} className="text-xl font-semibold">
					Get your first agent answering
				</h1>
				<p className="text-sm text-slate-700">Four steps, in this order. Each one says what is missing and where to do it.</p>
			</header>
			<ol aria-label="Steps to a first chat" className="grid grid-cols-1 gap-2">
				{checklist.steps.map((step, index) => (
					<StepItem key={step.step} step={step} number={index + 1} state={step.done ? "done" : step === next ? "next" : "later"} />
				))}
			</ol>
			{checklist.example ? <Example example={checklist.example} model={model} /> : null}
		</section>
	);
}

/** Above the chat once there is an agent: the step still missing (the first chat, usually), until it is done. */
export function StartBar({ checklist, agent }: { checklist: Checklist; agent: string }) {
	const next = nextStep(checklist);
	if (!next) return null;
	const copy = COPY[next.step];
	const done = checklist.steps.filter((step) => step.done).length;
	return (
		<section aria-label="Getting started" className="flex flex-wrap items-center gap-x-3 gap-y-1 border-b border-blue-200 bg-blue-50 px-4 py-2 text-sm text-blue-950">
			<p className="min-w-0 [overflow-wrap:anywhere]">
				<strong>
					Getting started: {done} of {checklist.steps.length} steps done.
				</strong>{" "}
				{next.step === "chat" ? `Last step: write your first message to ${agent} below.` : copy.missing}
			</p>
			{copy.link ? (
				<Link className="font-medium text-blue-800 underline" to={copy.link.to}>
					{copy.link.label}
				</Link>
			) : null}
		</section>
	);
}
