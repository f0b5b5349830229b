import { useMutation, useQueryClient } from "@tanstack/react-query";
import { RefreshCw } from "lucide-react";
import { useState } from "react";
import { Link } from "react-router";
import { columnsOf, DataTable, hiddenHeader, type Columns } from "../../components/DataTable";
import { Button } from "../../components/ui/button";
import { ConfirmDialog } from "../../components/ui/confirm";
import { Done, Empty, ErrorNote, Loading } from "../../components/ui/status";
import { cn } from "../../lib/cn";
import { kindLabel, recordPath, restoreAppVersion, seedAllApps, seedSummary, useSeededContent, type SeededRecord } from "./api";

const TONE: Record<string, string> = {
	"As the app ships it": "bg-green-100 text-green-800",
	"Changed from the app's version": "bg-amber-100 text-amber-800",
	Deleted: "bg-slate-200 text-slate-700",
};

/** Agents, tools, prompts and the rest that installed apps brought along, and whether they were changed here. */
export function ContentPage() {
	const content = useSeededContent();
	const queryClient = useQueryClient();
	const [restoring, setRestoring] = useState<SeededRecord | null>(null);
	const [done, setDone] = useState<string | null>(null);
	const seed = useMutation({
		mutationFn: seedAllApps,
		onSuccess: async (report) => {
			setDone(seedSummary(report));
			await queryClient.invalidateQueries({ queryKey: ["seeded-content"] });
		},
		onError: () => setDone(null),
	});
	return (
		<section aria-labelledby="content-heading" className="grid gap-4">
			<div className="flex flex-wrap items-start gap-3">
				<div className="min-w-0 flex-1">
					<h2 id="content-heading" className="text-base font-semibold">Content from apps</h2>
					<p className="text-sm text-slate-600">
						Agents, tools, prompts, knowledge sources, triggers and flows that installed apps bring along. Huf adds them when an app is installed or updated.
						Anything changed here is kept as it is, even when the app ships a newer version, until you take the app's version back.
					</p>
				</div>
				<Button variant="outline" disabled={seed.isPending} onClick={() => seed.mutate()}>
					<RefreshCw className="h-4 w-4" aria-hidden />
					{seed.isPending ? "Seeding…" : "Seed all apps now"}
				</Button>
			</div>
			{seed.error ? <ErrorNote error={seed.error} /> : null}
			<Done text={done} />
			{content.isPending ? <Loading /> : content.error ? <ErrorNote error={content.error} /> : (
				<>
					{content.data.records.length ? <Records records={content.data.records} onRestore={setRestoring} /> : <Empty title="Nothing from apps yet">No installed app ships agents, tools or prompts for Huf.</Empty>}
					{content.data.not_seeded.length ? (
						<div className="grid gap-2">
							<h3 className="text-sm font-semibold text-slate-800">Not added yet</h3>
							<p className="text-sm text-slate-600">An agent waits until the site has an AI model; Seed all apps now adds the rest.</p>
							<ul className="grid gap-1 text-sm text-slate-700">
								{content.data.not_seeded.map((item) => (
									<li key={`${item.app}/${item.file}/${item.key}`} className="[overflow-wrap:anywhere]">
										{kindLabel(item.doctype)} {item.key} — from the app {item.app}, file huf/{item.file}
									</li>
								))}
							</ul>
						</div>
					) : null}
					{content.data.problems.length ? (
						<div className="grid gap-2">
							<h3 className="text-sm font-semibold text-slate-800">Problems in the apps' files</h3>
							<p className="text-sm text-slate-600">These records were skipped; everything else was added. The app's authors can fix the files.</p>
							<ul className="grid gap-1 rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-900" aria-label="Problems in the apps' files">
								{content.data.problems.map((problem) => (
									<li key={problem} className="[overflow-wrap:anywhere]">
										{problem}
									</li>
								))}
							</ul>
						</div>
					) : null}
				</>
			)}
			{restoring ? <RestoreDialog record={restoring} onClose={() => setRestoring(null)} onRestored={(message) => { setDone(message); setRestoring(null); }} /> : null}
		</section>
	);
}

const column = columnsOf<SeededRecord>();

function Records({ records, onRestore }: { records: SeededRecord[]; onRestore: (record: SeededRecord) => void }) {
	const columns: Columns<SeededRecord> = [
		column.accessor("name", {
			header: "What",
			meta: { className: "[overflow-wrap:anywhere]" },
			cell: ({ row: { original: record } }) => {
				const path = record.status === "Deleted" ? null : recordPath(record.doctype, record.name);
				return (
					<>
						<span className="text-slate-500">{kindLabel(record.doctype)}</span>{" "}
						{path ? <Link to={path} className="text-blue-700 underline">{record.name}</Link> : record.name}
					</>
				);
			},
		}),
		column.accessor("app", {
			header: "App and file",
			meta: { className: "[overflow-wrap:anywhere]" },
			cell: ({ row: { original: record } }) => (
				<>
					{record.app}
					<span className="block text-xs text-slate-500">huf/{record.file}</span>
				</>
			),
		}),
		column.accessor("status", {
			header: "Status",
			cell: ({ row: { original: record } }) => (
				<>
					<span className={cn("inline-flex rounded-full px-2 py-0.5 text-xs font-medium", TONE[record.status] ?? "bg-slate-100 text-slate-700")}>{record.status}</span>
					{record.app_has_newer_version ? <span className="block text-xs text-slate-600">The app has a newer version.</span> : null}
					{!record.still_shipped ? <span className="block text-xs text-slate-600">The app no longer ships it.</span> : null}
				</>
			),
		}),
		column.display({
			id: "actions",
			header: hiddenHeader("Actions"),
			meta: { className: "text-right" },
			cell: ({ row: { original: record } }) =>
				record.changed && record.still_shipped ? (
					<Button variant="outline" size="sm" aria-label={`Take the app's version back for ${record.name}`} onClick={() => onRestore(record)}>
						Take the app's version back
					</Button>
				) : null,
		}),
	];
	return <DataTable columns={columns} rows={records} rowKey={(record) => record.seed_record} caption="Records that came from apps" />;
}

function RestoreDialog({ record, onClose, onRestored }: { record: SeededRecord; onClose: () => void; onRestored: (message: string) => void }) {
	const queryClient = useQueryClient();
	const restore = useMutation({
		mutationFn: () => restoreAppVersion(record.seed_record),
		onSuccess: async () => {
			await queryClient.invalidateQueries({ queryKey: ["seeded-content"] });
			onRestored(`${record.name} is back to the version the app ${record.app} ships.`);
		},
	});
	const what = `${kindLabel(record.doctype).toLowerCase()} ${record.name}`;
	return (
		<ConfirmDialog
			title="Take the app's version back?"
			description={
				record.status === "Deleted"
					? `The ${what} was deleted on this site. It will be made again as the app ${record.app} ships it.`
					: `The changes made on this site to the ${what} will be replaced by what the app ${record.app} ships. This can't be undone.`
			}
			confirm="Take the app's version"
			confirming="Taking it back…"
			action={restore}
			onClose={onClose}
		/>
	);
}
