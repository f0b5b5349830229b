import { Link, useSearchParams } from "react-router";
import { Empty, ErrorNote, Loading } from "../../components/ui/status";
import { cn } from "../../lib/cn";
import { useCan } from "../../lib/me";
import { isKind, KINDS, usePrompts, VISIBILITY, type PromptKind } from "./api";

const SEEN_BY: Record<string, string> = Object.fromEntries(VISIBILITY.map((item) => [item.value, item.label]));

export function KindSwitch({ kind, onChange }: { kind: PromptKind; onChange: (kind: PromptKind) => void }) {
	return (
		<div role="group" aria-label="Which instructions" className="flex flex-wrap gap-2">
			{KINDS.map((item) => (
				<button
					key={item.kind}
					type="button"
					aria-pressed={item.kind === kind}
					onClick={() => onChange(item.kind)}
					className={cn(
						"rounded-md border px-3 py-1.5 text-sm font-medium focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-blue-500",
						item.kind === kind ? "border-blue-600 bg-blue-50 text-blue-800" : "border-slate-300 bg-white text-slate-700 hover:bg-slate-50",
					)}
				>
					{item.label}
				</button>
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
		<div className="grid gap-4 p-4 md:p-6">
			<header className="grid gap-3">
				<div>
					<h1 className="text-xl font-semibold">Prompts</h1>
					<p className="text-sm text-slate-600">Instructions shared by several agents, with every earlier version kept. {hint}</p>
				</div>
				<div className="flex flex-wrap items-center gap-3">
					<KindSwitch kind={kind} onChange={(next) => setParams(next === "prompt" ? {} : { kind: next })} />
					{can("prompt.write") ? (
						<Link to={`/prompts/${kind}/new`} className="ml-auto rounded-md bg-blue-600 px-4 py-2 text-sm font-medium text-white hover:bg-blue-700 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-blue-500 focus-visible:ring-offset-2">
							New prompt
						</Link>
					) : null}
				</div>
			</header>
			{prompts.isPending ? <Loading /> : prompts.error ? <ErrorNote error={prompts.error} /> : !prompts.data.length ? (
				<Empty title="No shared instructions yet">
					{can("prompt.write") ? "Write one with New prompt, then pick it in an agent's settings." : "Ask an administrator to add some."}
				</Empty>
			) : (
				<ul className="grid grid-cols-1 gap-3 md:grid-cols-2">
					{prompts.data.map((prompt) => (
						<li key={prompt.name} className="relative grid gap-2 rounded-lg border border-slate-200 bg-white p-4 hover:bg-slate-50">
							<div className="flex flex-wrap items-center gap-2">
								<Link
									to={`/prompts/${kind}/${encodeURIComponent(prompt.name)}`}
									className="rounded-lg font-semibold text-blue-700 [overflow-wrap:anywhere] hover:underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-blue-500 after:absolute after:inset-0 after:content-['']"
								>
									{prompt.title}
								</Link>
								{!prompt.is_active ? <span className="rounded-full bg-slate-200 px-2 py-0.5 text-xs text-slate-700">Not active</span> : null}
								<span className="ml-auto text-xs text-slate-500">Version {prompt.version}</span>
							</div>
							{prompt.description ? <p className="text-sm text-slate-600 [overflow-wrap:anywhere]">{prompt.description}</p> : null}
							<p className="text-xs text-slate-500">
								{prompt.category ? `${prompt.category} · ` : ""}Visible to: {SEEN_BY[prompt.visibility] ?? prompt.visibility} ·{" "}
								{prompt.used_by.length === 1 ? "Used by 1 agent" : `Used by ${prompt.used_by.length} agents`}
							</p>
						</li>
					))}
				</ul>
			)}
		</div>
	);
}
