import { useState } from "react";
import { Button } from "../../components/ui/button";
import { ErrorNote, Loading } from "../../components/ui/status";
import { useFlow, useVersions, type Flow } from "./api";
import { Outline } from "./Outline";
import { when, type Definition } from "./rules";

type Props = { flow: Flow; canRestore: boolean; onRestore: (definition: Definition, version: number) => Promise<boolean> };

/** Every saved version with its note, who saved it and when; one can be opened (read only) and restored. */
export function Versions({ flow, canRestore, onRestore }: Props) {
	const versions = useVersions(flow.flow_id);
	const [open, setOpen] = useState<number | null>(null);
	return (
		<section aria-labelledby="versions-title" className="grid gap-2">
			<h2 id="versions-title" className="text-base font-semibold">Versions</h2>
			{versions.isPending ? <Loading /> : null}
			{versions.isError ? <ErrorNote error={versions.error} /> : null}
			{versions.data?.length ? (
				<ul className="divide-y divide-slate-100 rounded-lg border border-slate-200 bg-white text-sm">
					{versions.data.map((row) => (
						<li key={row.name} className="flex flex-wrap items-center gap-3 px-3 py-2">
							<span className="font-medium tabular-nums">Version {row.version}</span>
							{row.version === flow.version ? <span className="text-xs text-green-700">current</span> : null}
							<span className="min-w-0 flex-1 truncate text-slate-700">{row.note || <span className="text-slate-500">No note</span>}</span>
							<span className="text-xs text-slate-500">{row.saved_by}, {when(row.saved_at)}</span>
							<Button variant="ghost" size="sm" aria-expanded={open === row.version} onClick={() => setOpen(open === row.version ? null : row.version)}>
								{open === row.version ? "Close" : "Open this version"}
							</Button>
						</li>
					))}
				</ul>
			) : null}
			{open !== null ? <OpenVersion flowId={flow.flow_id} version={open} current={open === flow.version} canRestore={canRestore} onRestore={onRestore} onClose={() => setOpen(null)} /> : null}
		</section>
	);
}

function OpenVersion({ flowId, version, current, canRestore, onRestore, onClose }: { flowId: string; version: number; current: boolean; canRestore: boolean; onRestore: Props["onRestore"]; onClose: () => void }) {
	const found = useFlow(flowId, version);
	const [restoring, setRestoring] = useState(false);
	if (found.isPending) return <Loading />;
	if (found.isError) return <ErrorNote error={found.error} />;
	return (
		<div className="grid gap-2 rounded-lg border border-slate-300 bg-slate-50 p-3">
			<div className="flex flex-wrap items-center gap-2">
				<p className="text-sm text-slate-700">Version {version}, read only.</p>
				{canRestore && !current ? (
					<Button
						size="sm"
						className="ml-auto"
						disabled={restoring}
						onClick={async () => {
							setRestoring(true);
							if (await onRestore(found.data.definition, version)) onClose();
							setRestoring(false);
						}}
					>
						{restoring ? "Restoring…" : `Restore version ${version}`}
					</Button>
				) : null}
			</div>
			<Outline title={`Steps in version ${version}`} definition={found.data.definition} />
		</div>
	);
}
