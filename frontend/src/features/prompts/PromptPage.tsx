import { useState } from "react";
import { Link, useLocation, useParams } from "react-router";
import { Field, Select } from "../../components/ui/field";
import { Section } from "../../components/ui/section";
import { Empty, ErrorNote, Loading } from "../../components/ui/status";
import { ToggleButton } from "../../components/ui/toggle";
import { cn } from "../../lib/cn";
import { useCan } from "../../lib/me";
import { diffLines, isKind, KINDS, usePromptDiff, usePrompts, usePromptText, type PromptKind, type PromptRow, type SavedPrompt } from "./api";
import { PromptForm } from "./PromptForm";

const LINE: Record<string, string> = {
	added: "bg-green-50 text-green-900",
	removed: "bg-red-50 text-red-900",
	context: "text-slate-700",
	hunk: "bg-slate-100 text-slate-700",
	file: "text-slate-600",
};
const MARK: Record<string, string> = { added: "+", removed: "−", context: " ", hunk: "", file: "" };
const SPOKEN: Record<string, string> = { added: "Added: ", removed: "Removed: ", context: "", hunk: "", file: "" };

function when(value: string): string {
	const date = new Date(value.replace(" ", "T"));
	return Number.isNaN(date.getTime()) ? value : date.toLocaleString();
}

function VersionText({ kind, prompt, version }: { kind: PromptKind; prompt: string; version: number }) {
	const text = usePromptText(kind, prompt, version);
	if (text.isPending) return <Loading />;
	if (text.error) return <ErrorNote error={text.error} />;
	return (
		<pre className="max-h-96 overflow-auto whitespace-pre-wrap rounded-md border border-slate-200 bg-slate-50 p-3 text-sm [overflow-wrap:anywhere]">
			{text.data.prompt_body || "(empty)"}
		</pre>
	);
}

/** The newest version, in the form of someone who may change prompts. */
function EditNewest({ kind, prompt, onSaved }: { kind: PromptKind; prompt: PromptRow; onSaved: (saved: SavedPrompt) => void }) {
	const text = usePromptText(kind, prompt.name, prompt.version);
	if (text.isPending) return <Loading />;
	if (text.error) return <ErrorNote error={text.error} />;
	const initial = {
		title: prompt.title,
		slug: prompt.slug,
		category: prompt.category ?? "",
		visibility: prompt.visibility,
		description: prompt.description ?? "",
		is_active: prompt.is_active ? 1 : 0,
		prompt_body: text.data.prompt_body,
	} as const;
	return <PromptForm key={`${prompt.version}:${prompt.modified}`} kind={kind} name={prompt.name} version={prompt.version} initial={initial} onSaved={onSaved} />;
}

function Compare({ kind, prompt }: { kind: PromptKind; prompt: PromptRow }) {
	const numbers = prompt.versions.map((v) => v.version);
	const [from, setFrom] = useState(numbers[1] ?? numbers[0] ?? 0);
	const [to, setTo] = useState(numbers[0] ?? 0);
	const diff = usePromptDiff(kind, prompt.name, from, to);
	if (numbers.length < 2) return <p className="text-sm text-slate-600">There is only one version so far: saving a changed text makes the next one.</p>;
	const lines = diff.data ? diffLines(diff.data.diff) : [];
	return (
		<div className="grid gap-3">
			<div className="grid grid-cols-1 gap-3 sm:grid-cols-2">
				<VersionSelect label="Compare version" numbers={numbers} value={from} onChange={setFrom} />
				<VersionSelect label="With version" numbers={numbers} value={to} onChange={setTo} />
			</div>
			{from === to ? (
				<p className="text-sm text-slate-600">Pick two different versions to see what changed.</p>
			) : diff.isPending ? (
				<Loading />
			) : diff.error ? (
				<ErrorNote error={diff.error} />
			) : !lines.length ? (
				<p className="text-sm text-slate-600">The two versions have the same text.</p>
			) : (
				<div role="region" aria-label={`Changes from version ${from} to version ${to}`} tabIndex={0} className="max-h-[32rem] overflow-auto rounded-md border border-slate-200 font-mono text-sm focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-blue-500">
					{lines.map((line, index) => (
						<div key={index} className={cn("flex gap-2 whitespace-pre-wrap px-3 py-0.5 [overflow-wrap:anywhere]", LINE[line.kind])}>
							<span aria-hidden className="w-3 shrink-0 select-none">{MARK[line.kind]}</span>
							<span>
								{SPOKEN[line.kind] ? <span className="sr-only">{SPOKEN[line.kind]}</span> : null}
								{line.text || " "}
							</span>
						</div>
					))}
				</div>
			)}
		</div>
	);
}

export default function PromptPage() {
	const params = useParams();
	const kind: PromptKind = isKind(params.kind) ? params.kind : "prompt";
	const name = params.name ?? "";
	const prompts = usePrompts(kind);
	const can = useCan();
	const [shown, setShown] = useState<number | null>(null);
	const location = useLocation();
	const created = (location.state as { savedVersion?: number } | null)?.savedVersion;
	const [saved, setSaved] = useState<{ version: number; changed: boolean } | null>(created ? { version: created, changed: true } : null);
	const back = (
		<Link to={kind === "prompt" ? "/prompts" : `/prompts?kind=${kind}`} className="text-sm text-blue-700 underline">
			Back to {KINDS.find((item) => item.kind === kind)?.label.toLowerCase()}
		</Link>
	);
	if (prompts.isPending) return <Loading />;
	if (prompts.error) return <div className="grid gap-3 p-4 md:p-6"><ErrorNote error={prompts.error} />{back}</div>;
	const prompt = prompts.data.find((row) => row.name === name);
	if (!prompt) {
		return (
			<div className="grid gap-3 p-4 md:p-6">
				<Empty title="This prompt isn't here">It may have been deleted, or it is private to someone else.</Empty>
				{back}
			</div>
		);
	}
	const version = shown ?? prompt.version;
	const editing = can("prompt.write") && version === prompt.version;
	return (
		<div className="grid gap-4 p-4 md:p-6">
			{back}
			<header>
				<h1 className="text-xl font-semibold [overflow-wrap:anywhere]">{prompt.title}</h1>
				<p className="text-sm text-slate-600 [overflow-wrap:anywhere]">
					Short name {prompt.slug} · version {prompt.version}
					{prompt.is_active ? "" : " · not active"}
				</p>
				{prompt.description ? <p className="mt-1 text-sm text-slate-700 [overflow-wrap:anywhere]">{prompt.description}</p> : null}
			</header>
			<Section title="Versions">
				<ul className="grid gap-1">
					{prompt.versions.map((v) => (
						<li key={v.version} className="flex flex-wrap items-center gap-2 text-sm">
							<ToggleButton pressed={v.version === version} className="px-2 py-1" onClick={() => setShown(v.version)}>
								Version {v.version}
								{v.is_latest ? " (newest)" : ""}
							</ToggleButton>
							<span className="text-slate-500">
								saved {when(v.saved_at)} by {v.saved_by}
							</span>
						</li>
					))}
				</ul>
				{editing ? (
					<p className="text-sm text-slate-600">Version {version} is the newest: change it below. Older versions are kept as they were.</p>
				) : (
					<>
						<h3 className="mt-3 text-sm font-semibold text-slate-800">Text of version {version}</h3>
						{version !== prompt.version ? <p className="text-sm text-slate-600">Older versions can't be changed; they stay as they were.</p> : null}
						<VersionText kind={kind} prompt={prompt.name} version={version} />
					</>
				)}
			</Section>
			{saved ? (
				<p role="status" className="text-sm text-green-700">
					{saved.changed ? `Saved as version ${saved.version}.` : `Saved. The text didn't change, so this is still version ${saved.version}.`}
				</p>
			) : null}
			{editing ? (
				<EditNewest
					kind={kind}
					prompt={prompt}
					onSaved={(result) => {
						setSaved({ version: result.version, changed: result.version !== prompt.version });
						setShown(null);
					}}
				/>
			) : null}
			<Section title="What changed">
				<Compare key={prompt.version} kind={kind} prompt={prompt} />
			</Section>
			<Section title="Agents using it">
				{!prompt.used_by.length ? (
					<p className="text-sm text-slate-600">No agent uses it yet.</p>
				) : (
					<ul className="grid gap-1 text-sm">
						{prompt.used_by.map((use) => (
							<li key={use.agent} className="[overflow-wrap:anywhere]">
								{can("agent.read") ? (
									<Link to={`/agents/${encodeURIComponent(use.agent)}`} className="text-blue-700 underline">
										{use.agent}
									</Link>
								) : (
									use.agent
								)}{" "}
								<span className="text-slate-600">
									— {use.pinned ? `stays on version ${use.attached_version}` : "always uses the newest version"}
								</span>
							</li>
						))}
					</ul>
				)}
			</Section>
		</div>
	);
}

function VersionSelect({ label, numbers, value, onChange }: { label: string; numbers: number[]; value: number; onChange: (version: number) => void }) {
	return (
		<Field label={label}>
			{(props) => (
				<Select {...props} value={value} onChange={(event) => onChange(Number(event.target.value))}>
					{numbers.map((n) => (
						<option key={n} value={n}>
							Version {n}
						</option>
					))}
				</Select>
			)}
		</Field>
	);
}
