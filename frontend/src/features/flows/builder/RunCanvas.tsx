// A run drawn on its flow (the version it ran): each step shows what it is doing or did, the
// connections the run took are green, and clicking a step shows what went in, what came out, its
// error and the agent's run it made; a step waiting for approval can be decided right there, and a
// step Huf was interrupted in points to the decision above the canvas.
import { ReactFlowProvider } from "@xyflow/react";
import { useMemo, useState } from "react";
import { Link } from "react-router";
import { ErrorNote, Loading } from "../../../components/ui/status";
import { useFlow, type RunDetail } from "../api";
import { Decision } from "../Decision";
import { formatMs, repeatWords, STEP_NOTES, WHO_RESOLVES } from "../rules";
import { kindOf } from "./catalog";
import { Canvas } from "./Canvas";
import { fromDefinition } from "./convert";
import { LookContext } from "./look";
import { overlay, STATE_WORDS, stateOf, type Overlay } from "./overlay";

export function RunCanvas({ run }: { run: RunDetail }) {
	// A test run follows its own graph (the draft it was started with); any other run, its version.
	const flow = useFlow(run.flow_definition, run.flow_version);
	const definition = run.definition ?? flow.data?.definition;
	const canvas = useMemo(() => (definition ? fromDefinition(definition) : null), [definition]);
	const view = useMemo(() => overlay(run, canvas?.edges ?? []), [run, canvas]);
	const [picked, setPicked] = useState<string | null>(null);
	const look = useMemo(() => ({ problems: {}, overlay: view }), [view]);
	if (!canvas && flow.isPending) return <Loading />;
	if (!canvas) return <ErrorNote error={flow.error} />;
	const chosen = picked ?? (STOPPED_AT_STEP.includes(run.status) ? run.current_node_id : null);
	const nodes = canvas.nodes.map((node) => (node.id === chosen ? { ...node, selected: true } : node));
	return (
		<LookContext.Provider value={look}>
			<div className="grid h-[60vh] min-h-[420px] grid-cols-[1fr_20rem] overflow-hidden rounded-lg border border-slate-200 bg-white">
				<ReactFlowProvider>
					<Canvas nodes={nodes} edges={canvas.edges} readOnly label="The flow with this run's progress" onNodeClick={setPicked} />
				</ReactFlowProvider>
				<div role="region" aria-label="Step details" className="overflow-y-auto border-l border-slate-200 p-3">
					{chosen ? <StepDetails run={run} view={view} nodeId={chosen} label={canvas.nodes.find((node) => node.id === chosen)?.data.label ?? chosen} type={canvas.nodes.find((node) => node.id === chosen)?.type ?? ""} /> : <p className="text-sm text-slate-600">Select a step to see what went in and what came out. {view.hops} step{view.hops === 1 ? "" : "s"} taken so far.</p>}
				</div>
			</div>
		</LookContext.Provider>
	);
}

/** Run statuses that stop at the current step: it is the one shown first. */
const STOPPED_AT_STEP = ["Failed", "Waiting Approval", "Needs Attention", "Cancelled"];

/** Steps whose input is what they sent out: a tool's arguments, an agent's prompt. */
const SENT_BY = new Set(["tool.call", "agent.run"]);

const show = (value: unknown) => (typeof value === "string" ? value : JSON.stringify(value, null, 2));

function StepDetails({ run, view, nodeId, label, type }: { run: RunDetail; view: Overlay; nodeId: string; label: string; type: string }) {
	const state = stateOf(view, nodeId);
	const step = view.steps[nodeId]?.last;
	return (
		<div className="grid gap-2 text-sm" data-testid="step-details">
			<h2 className="text-base font-semibold">{label}</h2>
			<p className="text-slate-600">{kindOf(type)?.title ?? type}</p>
			<p className="font-medium">{state ? STATE_WORDS[state] : "Not reached"}{step?.duration_ms != null ? `, ${formatMs(step.duration_ms)}` : ""}</p>
			{step?.repeats ? <p className="text-slate-600">{repeatWords(step.repeats)}</p> : null}
			{step?.error ? (
				STEP_NOTES.includes(step.status) ? (
					<p className="whitespace-pre-wrap rounded-md border border-slate-200 bg-slate-50 p-2 text-slate-800">{step.error}</p>
				) : (
					<p role="alert" className="whitespace-pre-wrap rounded-md border border-red-200 bg-red-50 p-2 text-red-800">{step.error}</p>
				)
			) : null}
			{state === "waiting" && run.status === "Waiting Approval" ? (
				run.can_approve ? <Decision flowRun={run.name} /> : <p className="text-slate-600">Waiting for the people this step names.</p>
			) : null}
			{state === "attention" && run.status === "Needs Attention" ? (
				<p className="text-slate-600">{run.can_resolve ? "Choose above what happens next: try the step again, skip it or end the run." : WHO_RESOLVES}</p>
			) : null}
			{step ? (
				<>
					<Block title={SENT_BY.has(type) ? "What was sent" : "What went in"} value={show(view.io[nodeId]?.input ?? null)} />
					{step.output ? <Block title="What came out" value={step.output} /> : null}
				</>
			) : null}
			{step?.agent_run ? (
				<Link className="text-blue-700 hover:underline" to={`/runs/${step.agent_run}`}>
					Open the agent's run
				</Link>
			) : null}
		</div>
	);
}

function Block({ title, value }: { title: string; value: string }) {
	return (
		<details open className="grid gap-1">
			<summary className="cursor-pointer text-slate-700">{title}</summary>
			<pre className="max-h-48 overflow-auto whitespace-pre-wrap rounded bg-slate-50 p-2 text-xs">{value}</pre>
		</details>
	);
}
