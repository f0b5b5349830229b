import { Plus } from "lucide-react";
import { useState } from "react";
import { Link } from "react-router";
import { Button } from "../../components/ui/button";
import { Empty, ErrorNote, Loading, StatusBadge } from "../../components/ui/status";
import { useMe } from "../../lib/me";
import { KIND_LABELS, useSources } from "./api";
import { NewSourceDialog } from "./NewSourceDialog";
import { ProgressBar } from "./ProgressBar";

export default function KnowledgePage() {
	const sources = useSources();
	const me = useMe();
	const [creating, setCreating] = useState(false);
	const canCreate = Boolean(me.data?.capabilities["knowledge.write"]);
	return (
		<div className="grid gap-4 p-4 md:p-6">
			<header className="flex flex-wrap items-center gap-3">
				<div>
					<h1 className="text-xl font-semibold">Knowledge</h1>
					<p className="text-sm text-slate-600">Documents, pages and notes your agents answer from.</p>
				</div>
				{canCreate ? (
					<Button className="ml-auto" onClick={() => setCreating(true)}>
						<Plus className="h-4 w-4" aria-hidden /> New source
					</Button>
				) : null}
			</header>
			{sources.isPending ? <Loading /> : sources.error ? <ErrorNote error={sources.error} /> : !sources.data.length ? (
				<Empty title="No knowledge yet">{canCreate ? "Create a source, then add files, web pages or text to it." : "Ask an administrator to add some."}</Empty>
			) : (
				<ul className="grid gap-3 md:grid-cols-2">
					{sources.data.map((source) => (
						<li key={source.name} className="relative grid gap-2 rounded-lg border border-slate-200 bg-white p-4 hover:bg-slate-50">
							<div className="flex items-center gap-2">
								{/* the whole card opens the source (the link covers it) */}
								<Link to={`/knowledge/${encodeURIComponent(source.name)}`} className="rounded-lg font-semibold text-blue-700 hover:underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-blue-500 after:absolute after:inset-0 after:content-['']">
									{source.source_name}
								</Link>
								<StatusBadge status={source.status} />
								<span className="ml-auto text-xs text-slate-500">{KIND_LABELS[source.knowledge_type]}</span>
							</div>
							{source.description ? <p className="text-sm text-slate-600">{source.description}</p> : null}
							<ProgressBar name={source.source_name} progress={{ ...source, source: source.name }} />
							{source.last_error ? <p className="text-sm text-red-700">{source.last_error}</p> : null}
						</li>
					))}
				</ul>
			)}
			{creating ? <NewSourceDialog open onOpenChange={setCreating} /> : null}
		</div>
	);
}
