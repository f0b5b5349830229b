import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Download, Play, Upload } from "lucide-react";
import { useCallback, useMemo, useState } from "react";
import { Link, useNavigate, useParams, useSearchParams } from "react-router";
import { Button } from "../../components/ui/button";
import { useUnsavedGuard } from "../../components/unsaved";
import { Field, Input } from "../../components/ui/field";
import { Section } from "../../components/ui/section";
import { ErrorNote, Loading, StatusBadge } from "../../components/ui/status";
import { holds, useMe } from "../../lib/me";
import { preloaded } from "../../lib/preload";
import { saveFlow, useFlow, useFlowRun, useFlowRuns, type Flow, type SaveArgs } from "./api";
import { SampleContext } from "./builder/sample";
import { ImportDialog } from "./ImportDialog";
import { Outline } from "./Outline";
import { RunDialog } from "./RunDialog";
import { TestMark } from "./TestMark";
import { TestRun } from "./TestRun";
import { problemsByNode, when, type Definition, type Problems } from "./rules";
import { Versions } from "./Versions";

export default function FlowPage() {
	const { flowId = "" } = useParams();
	const flow = useFlow(flowId);
	if (flow.isPending) return <Loading />;
	if (flow.isError) return <div className="p-6"><ErrorNote error={flow.error} /></div>;
	return <FlowView key={flow.data.modified} flow={flow.data} />;
}

const STATUS_ACTIONS: Record<Flow["status"], { to: Flow["status"]; label: string }[]> = {
	Draft: [{ to: "Active", label: "Activate" }, { to: "Archived", label: "Archive" }],
	Active: [{ to: "Draft", label: "Back to draft" }, { to: "Archived", label: "Archive" }],
	Archived: [{ to: "Draft", label: "Back to draft" }, { to: "Active", label: "Activate" }],
};

const Builder = preloaded(() => import("./builder/Builder").then((module) => module.Builder));

function FlowView({ flow }: { flow: Flow }) {
	const focus = useSearchParams()[0].get("step") ?? undefined; // a step to open with, e.g. from a run's explanation
	const me = useMe().data;
	const writer = holds(me, "flow.write");
	const queryClient = useQueryClient();
	const [name, setName] = useState(flow.flow_name);
	const [refused, setRefused] = useState<Problems | null>(null);
	const [dialog, setDialog] = useState<"run" | "import" | null>(null);
	const [graphDirty, setGraphDirty] = useState(false);
	const [asList, setAsList] = useState(false);
	const [draft, setDraft] = useState<Definition>(flow.definition);
	const [testRun, setTestRun] = useState<string | null>(null);
	const navigate = useNavigate();
	// The last test run's values: the one started here, else the newest listed.
	const listed = useFlowRuns(flow.flow_id).data;
	const lastTest = testRun ?? listed?.find((run) => run.is_test)?.name ?? null;
	const lastTestRun = useFlowRun(lastTest).data;
	const sample = useMemo(() => (lastTestRun ? { context: lastTestRun.context } : null), [lastTestRun]);
	const dirty = name !== flow.flow_name || graphDirty;
	const { justSaved, prompt: leavePrompt } = useUnsavedGuard(dirty);

	const save = useMutation({
		mutationFn: (args: Omit<SaveArgs, "flow_id">) => saveFlow({ flow_id: flow.flow_id, ...args }),
		onSuccess: async () => {
			justSaved.current = true;
			setRefused(null);
			await queryClient.invalidateQueries({ queryKey: ["flows"] });
			await queryClient.invalidateQueries({ queryKey: ["flow", flow.flow_id] });
			await queryClient.invalidateQueries({ queryKey: ["flow-versions", flow.flow_id] });
		},
		onError: (error, args) => {
			if (args.definition) setRefused(problemsByNode(error.message, args.definition));
		},
	});
	/** Saves a graph as the next version; resolves false (and shows its problems) when refused. */
	const { mutateAsync } = save;
	const saveGraph = useCallback(
		(definition: Definition, note: string) =>
			mutateAsync({ definition, note }).then(
				() => true,
				() => false,
			),
		[mutateAsync],
	);
	const canRun = holds(me, "flow.run") && (writer || flow.status === "Active");
	const exportFile = () => {
		const url = URL.createObjectURL(new Blob([JSON.stringify(flow.definition, null, 2)], { type: "application/json" }));
		const link = Object.assign(document.createElement("a"), { href: url, download: `${flow.flow_id}.json` });
		link.click();
		URL.revokeObjectURL(url);
	};

	return (
		<div className="grid min-w-0 gap-4 p-3 md:p-4">
			<Link to="/flows" className="text-sm text-blue-700 hover:underline">All flows</Link>
			<header className="flex flex-wrap items-center gap-3">
				<h1 className="text-xl font-semibold">{flow.flow_name}</h1>
				<span className="text-sm text-slate-600" data-testid="flow-status">{flow.status}</span>
				<span className="text-sm text-slate-500">Version {flow.version}{flow.updated_by ? `, changed by ${flow.updated_by} ${when(flow.updated_at)}` : ""}</span>
				<div className="ml-auto flex flex-wrap gap-2">
					{canRun ? (
						<Button onClick={() => setDialog("run")}>
							<Play className="h-4 w-4" aria-hidden />
							Run
						</Button>
					) : null}
					{writer
						? STATUS_ACTIONS[flow.status].map((action) => (
								<Button key={action.to} variant="outline" disabled={save.isPending || graphDirty} title={graphDirty ? "Save your changes to the steps first" : undefined} onClick={() => save.mutate({ status: action.to })}>
									{action.label}
								</Button>
							))
						: null}
					{writer ? (
						<Button variant="outline" onClick={() => setDialog("import")}>
							<Upload className="h-4 w-4" aria-hidden />
							Import
						</Button>
					) : null}
					<Button variant="outline" onClick={exportFile}>
						<Download className="h-4 w-4" aria-hidden />
						Export
					</Button>
				</div>
			</header>
			{save.isError && !refused ? <ErrorNote error={save.error} /> : null}
			{refused ? (
				<p role="alert" className="rounded-md border border-red-200 bg-red-50 p-3 text-sm font-medium text-red-800">
					This flow could not be saved. Nothing was changed; the problems are shown on their steps.
				</p>
			) : null}
			<div className="flex items-center gap-2">
				<h2 className="text-base font-semibold">Steps</h2>
				<Button variant="ghost" size="sm" className="ml-auto" aria-pressed={asList} onClick={() => setAsList(!asList)}>
					{asList ? "Show the canvas" : "Show the steps as a list"}
				</Button>
			</div>
			{asList ? <Outline title="Steps in order" definition={flow.definition} /> : null}
			{/* The builder fills the screen once scrolled to: the page's navigation and this page's header stay above it. */}
			<div hidden={asList} className="h-[calc(100dvh-1.5rem)] min-h-[26rem] min-w-0 md:h-[calc(100dvh-2rem)]">
				<SampleContext.Provider value={sample}>
					<Builder definition={flow.definition} readOnly={!writer} refused={refused} saving={save.isPending} onSave={saveGraph} onDirty={setGraphDirty} onDraft={setDraft} flowId={flow.flow_id} focus={focus} />
				</SampleContext.Provider>
			</div>
			{testRun ? <TestRun name={testRun} onClose={() => setTestRun(null)} /> : null}
			<FlowRuns flowId={flow.flow_id} />
			<Versions flow={flow} canRestore={writer} onRestore={(definition, version) => saveGraph(definition, `Restored version ${version}`)} />
			{writer ? (
				<form
					noValidate
					aria-label="Flow settings"
					onSubmit={(event) => {
						event.preventDefault();
						if (name.trim()) save.mutate({ flow_name: name.trim() });
					}}
				>
					<Section title="Settings">
						<Field label="Flow name" error={name.trim() ? undefined : "Give the flow a name."} hint={`Flow ID: ${flow.flow_id}`}>
							{(props) => <Input value={name} onChange={(e) => setName(e.target.value)} {...props} />}
						</Field>
						<div className="flex items-center gap-3">
							{name !== flow.flow_name ? <span className="text-xs text-amber-700">Unsaved changes</span> : null}
							<Button type="submit" variant="outline" className="ml-auto" disabled={save.isPending || name === flow.flow_name}>Save name</Button>
						</div>
					</Section>
				</form>
			) : null}
			{dialog === "run" ? (
				<RunDialog
					flowId={flow.flow_id}
					draft={writer ? draft : null}
					dirty={graphDirty}
					active={flow.status === "Active"}
					version={flow.version}
					onStarted={(run, choice) => {
						// the dialog closes first, so a prompt about unsaved changes never opens under it
						setDialog(null);
						void queryClient.invalidateQueries({ queryKey: ["flow-runs", flow.flow_id] });
						if (choice === "draft") setTestRun(run);
						else navigate(`/flows/runs/${run}`);
					}}
					onClose={() => setDialog(null)}
				/>
			) : null}
			{dialog === "import" ? <ImportDialog flowId={flow.flow_id} onImport={(definition) => saveGraph(definition, "Imported")} onClose={() => setDialog(null)} /> : null}
			{leavePrompt}
		</div>
	);
}

function FlowRuns({ flowId }: { flowId: string }) {
	const runs = useFlowRuns(flowId);
	return (
		<section aria-labelledby="runs-title" className="grid gap-2">
			<h2 id="runs-title" className="text-base font-semibold">Runs</h2>
			{runs.isPending ? <Loading /> : null}
			{runs.isError ? <ErrorNote error={runs.error} /> : null}
			{runs.data && !runs.data.length ? <p className="text-sm text-slate-600">No runs yet.</p> : null}
			{runs.data?.length ? (
				<ul className="divide-y divide-slate-100 rounded-lg border border-slate-200 bg-white text-sm">
					{runs.data.map((run) => (
						<li key={run.name}>
							<Link to={`/flows/runs/${run.name}`} className="flex flex-wrap items-center gap-3 px-3 py-2 hover:bg-slate-50 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-inset focus-visible:ring-blue-500">
								<StatusBadge status={run.status} />
								{run.is_test ? <TestMark /> : null}
								<span>{when(run.started_at)}</span>
								<span className="text-slate-600">by {run.user}</span>
								<span className="ml-auto text-xs text-slate-500">{run.is_test ? `test of unsaved changes after version ${run.flow_version}` : `version ${run.flow_version}`}, {run.hop_count} steps</span>
							</Link>
						</li>
					))}
				</ul>
			) : null}
		</section>
	);
}
