// The last test run under the builder: the draft it ran, drawn with each step's input and output as
// the run goes, without leaving the builder (so unsaved changes stay where they are).
import { X } from "lucide-react";
import { Link } from "react-router";
import { Button } from "../../components/ui/button";
import { ErrorNote, Loading, StatusBadge } from "../../components/ui/status";
import { preloaded } from "../../lib/preload";
import { useFlowRun } from "./api";
import { RUN_ACTIVE } from "./rules";
import { TestMark } from "./TestMark";

const RunCanvas = preloaded(() => import("./builder/RunCanvas").then((module) => module.RunCanvas));

export function TestRun({ name, onClose }: { name: string; onClose: () => void }) {
	const run = useFlowRun(name);
	return (
		<section aria-labelledby="test-run-title" data-testid="test-run" className="grid gap-2 rounded-lg border border-violet-200 bg-violet-50/40 p-3">
			<div className="flex flex-wrap items-center gap-2">
				<h2 id="test-run-title" className="text-base font-semibold">Test run</h2>
				<TestMark />
				{run.data ? <StatusBadge status={run.data.status} /> : null}
				{run.data && RUN_ACTIVE.includes(run.data.status) ? <span className="text-xs text-slate-600" role="status">Updating as it runs…</span> : null}
				<Link to={`/flows/runs/${name}`} className="ml-auto text-sm text-blue-700 hover:underline">Open the run's page</Link>
				<Button variant="ghost" size="sm" onClick={onClose} aria-label="Close the test run">
					<X className="h-4 w-4" aria-hidden />
				</Button>
			</div>
			{run.isPending ? <Loading /> : null}
			{run.isError ? <ErrorNote error={run.error} /> : null}
			{run.data?.status === "Failed" && run.data.last_error ? <p role="alert" className="whitespace-pre-wrap text-sm text-red-800">{run.data.last_error}</p> : null}
			{run.data ? <RunCanvas run={run.data} /> : null}
		</section>
	);
}
