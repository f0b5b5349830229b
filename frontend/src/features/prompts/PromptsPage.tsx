import { Link, useSearchParams } from "react-router";
import { CardLink, Cards, DataList, ListPage } from "../../components/ListPage";
import { Button } from "../../components/ui/button";
import { Empty } from "../../components/ui/status";
import { ToggleButton } from "../../components/ui/toggle";
import { useCan } from "../../lib/me";
import { isKind, KINDS, usePrompts, VISIBILITY, type PromptKind } from "./api";

const SEEN_BY: Record<string, string> = Object.fromEntries(VISIBILITY.map((item) => [item.value, item.label]));

function KindSwitch({ kind, onChange }: { kind: PromptKind; onChange: (kind: PromptKind) => void }) {
	return (
		<div role="group" aria-label="Which instructions" className="flex flex-wrap gap-2">
			{KINDS.map((item) => (
				<ToggleButton key={item.kind} pressed={item.kind === kind} className="px-3 py-1.5 text-sm" onClick={() => onChange(item.kind)}>
					{item.label}
				</ToggleButton>
			))}
		</div>
	);
}

export default function PromptsPage() {
	const [params, setParams] = useSearchParams();
	const requested = params.get("kind");
	const kind: PromptKind = isKind(requested) ? requested : "prompt";
	const prompts = usePrompts(kind);
	const can = useCan();
	const hint = KINDS.find((item) => item.kind === kind)?.hint ?? "";
	return (
		<ListPage title="Prompts" description={`Instructions shared by several agents, with every earlier version kept. ${hint}`}>
			<div className="flex flex-wrap items-center gap-3">
				<KindSwitch kind={kind} onChange={(next) => setParams(next === "prompt" ? {} : { kind: next })} />
				{can("prompt.write") ? (
					<Button asChild className="ml-auto">
						<Link to={`/prompts/${kind}/new`}>New prompt</Link>
					</Button>
				) : null}
			</div>
			<DataList query={prompts} empty={<Empty title="No shared instructions yet">{can("prompt.write") ? "Write one with New prompt, then pick it in an agent's settings." : "Ask an administrator to add some."}</Empty>}>
				{(rows) => (
					<Cards rows={rows} rowKey={(prompt) => prompt.name}>
						{(prompt) => (
							<>
								<div className="flex flex-wrap items-center gap-2">
									<CardLink to={`/prompts/${kind}/${encodeURIComponent(prompt.name)}`}>{prompt.title}</CardLink>
									{!prompt.is_active ? <span className="rounded-full bg-slate-200 px-2 py-0.5 text-xs text-slate-700">Not active</span> : null}
									<span className="ml-auto text-xs text-slate-500">Version {prompt.version}</span>
								</div>
								{prompt.description ? <p className="text-sm text-slate-600 [overflow-wrap:anywhere]">{prompt.description}</p> : null}
								<p className="text-xs text-slate-500">
									{prompt.category ? `${prompt.category} · ` : ""}Visible to: {SEEN_BY[prompt.visibility] ?? prompt.visibility} ·{" "}
									{prompt.used_by.length === 1 ? "Used by 1 agent" : `Used by ${prompt.used_by.length} agents`}
								</p>
							</>
						)}
					</Cards>
				)}
			</DataList>
		</ListPage>
	);
}
