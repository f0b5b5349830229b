import { useId, useState, type ReactNode } from "react";
import { Link } from "react-router";
import { Field, Input, Select } from "../../components/ui/field";
import { ErrorNote, Loading } from "../../components/ui/status";
import { cn } from "../../lib/cn";
import { usePrompts, type PromptKind, type PromptRow } from "../prompts/api";

/** Where an agent's instructions (or its summary instructions) come from: its own text, or a prompt
 * of the library, always its newest version or kept at one version. */
export type PromptChoiceValue = { mode: "Local" | "Template"; template: string; locked: 0 | 1; version: number };

type Props = {
	kind: PromptKind;
	value: PromptChoiceValue;
	error?: string | undefined;
	onChange: (value: PromptChoiceValue) => void;
	/** The agent's own text field, shown while it writes its own. */
	children: ReactNode;
};

const WORDS: Record<PromptKind, { own: string; library: string; legend: string }> = {
	prompt: { own: "Write instructions here", library: "Use a prompt from the library", legend: "Where the instructions come from" },
	summary: { own: "Write summary instructions here", library: "Use summary instructions from the library", legend: "Where the summary instructions come from" },
};

function matches(prompt: PromptRow, query: string): boolean {
	const words = query.toLowerCase().split(/\s+/).filter(Boolean);
	const text = [prompt.title, prompt.slug, prompt.category ?? "", prompt.description ?? ""].join(" ").toLowerCase();
	return words.every((word) => text.includes(word));
}

export function PromptChoice({ kind, value, error, onChange, children }: Props) {
	const id = useId();
	const words = WORDS[kind];
	const set = (change: Partial<PromptChoiceValue>) => onChange({ ...value, ...change });
	return (
		<div className="grid gap-3">
			<fieldset className="grid gap-2">
				<legend className="mb-1 text-sm font-medium text-slate-800">{words.legend}</legend>
				{(["Local", "Template"] as const).map((mode) => (
					<label key={mode} className="flex items-center gap-2 text-sm text-slate-800">
						<input type="radio" name={`${id}-mode`} className="h-4 w-4 accent-blue-600" checked={value.mode === mode} onChange={() => set({ mode })} />
						{mode === "Local" ? words.own : words.library}
					</label>
				))}
			</fieldset>
			{value.mode === "Local" ? children : <Library kind={kind} value={value} error={error} set={set} />}
		</div>
	);
}

function Library({ kind, value, error, set }: { kind: PromptKind; value: PromptChoiceValue; error?: string | undefined; set: (change: Partial<PromptChoiceValue>) => void }) {
	const id = useId();
	const prompts = usePrompts(kind);
	const [query, setQuery] = useState("");
	if (prompts.isPending) return <Loading />;
	if (prompts.error) return <ErrorNote error={prompts.error} />;
	const picked = prompts.data.find((prompt) => prompt.name === value.template);
	const shown = prompts.data.filter((prompt) => prompt.name === value.template || (prompt.is_active && matches(prompt, query)));
	const newest = picked?.version ?? 0;
	return (
		<div className="grid gap-3">
			{!prompts.data.length ? (
				<p className="text-sm text-slate-600">
					The library has no prompts yet. <Link to={kind === "prompt" ? "/prompts" : "/prompts?kind=summary"} className="text-blue-700 underline">Open the prompts</Link> to write one.
				</p>
			) : (
				<>
					<Field label={kind === "prompt" ? "Find a prompt" : "Find summary instructions"}>
						{(props) => <Input type="search" value={query} onChange={(e) => setQuery(e.target.value)} {...props} />}
					</Field>
					<fieldset aria-describedby={error ? `${id}-error` : undefined} className="grid gap-1">
						<legend className="mb-1 text-sm font-medium text-slate-800">{kind === "prompt" ? "Prompt" : "Summary instructions"}</legend>
						{!shown.length ? <p className="text-sm text-slate-600">No prompt matches.</p> : null}
						<ul className="grid max-h-72 grid-cols-1 gap-1 overflow-y-auto">
							{shown.map((prompt) => (
								<li key={prompt.name}>
									<label
										className={cn(
											"flex cursor-pointer items-start gap-2 rounded-md border p-2 text-sm",
											prompt.name === value.template ? "border-blue-600 bg-blue-50" : "border-slate-200 hover:bg-slate-50",
										)}
									>
										<input
											type="radio"
											name={`${id}-prompt`}
											className="mt-0.5 h-4 w-4 shrink-0 accent-blue-600"
											checked={prompt.name === value.template}
											onChange={() => set({ template: prompt.name, version: prompt.version })}
										/>
										<span className="grid min-w-0 gap-0.5">
											<span className="font-medium [overflow-wrap:anywhere]">
												{prompt.title} <span className="font-normal text-slate-600">· version {prompt.version}</span>
											</span>
											{prompt.description ? <span className="text-slate-600 [overflow-wrap:anywhere]">{prompt.description}</span> : null}
										</span>
									</label>
								</li>
							))}
						</ul>
						{error ? (
							<p id={`${id}-error`} className="text-sm text-red-600">
								{error}
							</p>
						) : null}
					</fieldset>
				</>
			)}
			{picked ? (
				<>
					<fieldset className="grid gap-2">
						<legend className="mb-1 text-sm font-medium text-slate-800">Which version</legend>
						<label className="flex items-center gap-2 text-sm text-slate-800">
							<input type="radio" name={`${id}-locked`} className="h-4 w-4 accent-blue-600" checked={!value.locked} onChange={() => set({ locked: 0 })} />
							Always the newest version (changes to the prompt apply at once)
						</label>
						<label className="flex items-center gap-2 text-sm text-slate-800">
							<input type="radio" name={`${id}-locked`} className="h-4 w-4 accent-blue-600" checked={Boolean(value.locked)} onChange={() => set({ locked: 1, version: value.version || newest })} />
							Keep one version (later changes don't apply)
						</label>
					</fieldset>
					{value.locked ? (
						<Field label="Version to keep">
							{(props) => (
								<Select value={value.version || newest} onChange={(e) => set({ version: Number(e.target.value) })} {...props}>
									{picked.versions.map((v) => (
										<option key={v.version} value={v.version}>
											Version {v.version}
											{v.is_latest ? " (newest)" : ""}
										</option>
									))}
								</Select>
							)}
						</Field>
					) : null}
					<Link to={`/prompts/${kind}/${encodeURIComponent(picked.name)}`} className="text-sm text-blue-700 underline">
						Read {picked.title}
					</Link>
				</>
			) : null}
		</div>
	);
}

/** The Agent fields a choice is saved in. A kept older version is sent as that version's own name,
 * which the server turns into the prompt kept at that version (huf/ai/prompts.py attach). */
export function promptFields(value: PromptChoiceValue, newest: number | undefined): PromptChoiceValue {
	if (value.mode !== "Template") return { mode: "Local", template: "", locked: 0, version: 0 };
	if (value.locked && newest && value.version && value.version !== newest) return { ...value, template: `${value.template}--v${value.version}` };
	return value;
}
