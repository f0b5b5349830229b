import { useState } from "react";
import { CardLink, Cards, DataList, ListPage, NewButton } from "../../components/ListPage";
import { Empty, StatusBadge } from "../../components/ui/status";
import { useCan } from "../../lib/me";
import { KIND_LABELS, useSources } from "./api";
import { NewSourceDialog } from "./NewSourceDialog";
import { ProgressBar } from "./ProgressBar";

export default function KnowledgePage() {
	const sources = useSources();
	const [creating, setCreating] = useState(false);
	const canCreate = useCan()("knowledge.write");
	return (
		<ListPage
			title="Knowledge"
			description="Documents, pages and notes your agents answer from."
			actions={canCreate ? <NewButton onClick={() => setCreating(true)}>New source</NewButton> : null}
		>
			<DataList query={sources} empty={<Empty title="No knowledge yet">{canCreate ? "Create a source, then add files, web pages or text to it." : "Ask an administrator to add some."}</Empty>}>
				{(rows) => (
					<Cards rows={rows} rowKey={(source) => source.name}>
						{(source) => (
							<>
								<div className="flex items-center gap-2">
									{/* the whole card opens the source (the link covers it) */}
									<CardLink to={`/knowledge/${encodeURIComponent(source.name)}`}>{source.source_name}</CardLink>
									<StatusBadge status={source.status} />
									<span className="ml-auto text-xs text-slate-500">{KIND_LABELS[source.knowledge_type]}</span>
								</div>
								{source.description ? <p className="text-sm text-slate-600">{source.description}</p> : null}
								<ProgressBar name={source.source_name} progress={{ ...source, source: source.name }} />
								{source.last_error ? <p className="text-sm text-red-700">{source.last_error}</p> : null}
							</>
						)}
					</Cards>
				)}
			</DataList>
			{creating ? <NewSourceDialog open onOpenChange={setCreating} /> : null}
		</ListPage>
	);
}
