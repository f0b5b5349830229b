import { useMutation } from "@tanstack/react-query";
import { useId, useState } from "react";
import { Button } from "../../components/ui/button";
import { Dialog } from "../../components/ui/dialog";
import { Field, Form, Textarea } from "../../components/ui/field";
import { ErrorNote } from "../../components/ui/status";
import { runDraft, runFlow } from "./api";
import { parseInput, type Definition } from "./rules";

/** What Run starts: the steps as they are on screen (a test run), or the saved version. */
export type RunChoice = "draft" | "saved";

type Props = {
	flowId: string;
	/** The steps as the builder shows them, saved or not; null when the person may not test changes. */
	draft: Definition | null;
	/** Whether the steps on screen differ from the saved version. */
	dirty: boolean;
	/** Whether the saved version is the flow's active one (else it is a draft not yet activated). */
	active: boolean;
	version: number;
	/** Called once a run has started; the page closes this dialog first, then shows the run. */
	onStarted: (flowRun: string, choice: RunChoice) => void;
	onClose: () => void;
};

/** Start a run, with optional input (what the steps read as "trigger"): a test run of what is on
 * screen, or a run of the saved version. */
export function RunDialog({ flowId, draft, dirty, active, version, onStarted, onClose }: Props) {
	// unsaved changes: testing them is what is wanted most often; none: the saved version is the same
	const [choice, setChoice] = useState<RunChoice>(draft && dirty ? "draft" : "saved");
	const [input, setInput] = useState("");
	const [error, setError] = useState<string | undefined>();
	const name = useId();
	const start = useMutation({
		mutationFn: (payload: Record<string, unknown> | null) => (choice === "draft" && draft ? runDraft(flowId, draft, payload) : runFlow(flowId, payload)),
		onSuccess: ({ flow_run }) => onStarted(flow_run, choice),
	});
	const savedTitle = active ? "Run the active version" : "Run the saved version";
	const choices: { value: RunChoice; title: string; about: string }[] = [
		...(draft
			? [{ value: "draft" as const, title: "Run this draft", about: `A test run of the steps as they are on screen${dirty ? ", unsaved changes included" : ""}. Each step's input and output show on the canvas as it goes. Triggers never start test runs.` }]
			: []),
		{ value: "saved", title: savedTitle, about: `Version ${version}, as last saved${dirty ? ": your unsaved changes are not in it" : ""}. You go to the run's page.` },
	];
	return (
		<Dialog open onOpenChange={(open) => (open ? undefined : onClose())} title="Run this flow" description="The flow runs with your permissions. Its steps can read the input below.">
			<Form
				className="grid gap-3"
				onSubmit={() => {
					const found = parseInput(input);
					if (!found.ok) return setError(found.error);
					start.mutate(found.payload);
				}}
			>
				{choices.length > 1 ? (
					<fieldset className="grid gap-2">
						<legend className="mb-1 text-sm font-medium">What to run</legend>
						{choices.map((option) => (
							<label key={option.value} className="flex cursor-pointer gap-2 rounded-md border border-slate-200 p-2 has-[:checked]:border-blue-600 has-[:checked]:bg-blue-50">
								<input type="radio" name={name} value={option.value} checked={choice === option.value} onChange={() => setChoice(option.value)} className="mt-1" aria-describedby={`${name}-${option.value}`} />
								<span className="grid gap-0.5">
									<span className="text-sm font-medium">{option.title}</span>
									<span id={`${name}-${option.value}`} className="text-xs text-slate-600">{option.about}</span>
								</span>
							</label>
						))}
					</fieldset>
				) : null}
				<Field label="Input (optional)" error={error} hint='Named values in braces, e.g. {"customer": "ACME", "amount": 100}.'>
					{(props) => (
						<Textarea
							rows={6}
							className="font-mono text-xs"
							value={input}
							onChange={(e) => {
								setInput(e.target.value);
								setError(undefined);
							}}
							{...props}
						/>
					)}
				</Field>
				{start.isError ? <ErrorNote error={start.error} /> : null}
				<Button type="submit" className="justify-self-end" disabled={start.isPending}>
					{start.isPending ? "Starting…" : choice === "draft" ? "Start test run" : "Start run"}
				</Button>
			</Form>
		</Dialog>
	);
}
