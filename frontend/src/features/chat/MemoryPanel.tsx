import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { X } from "lucide-react";
import { useEffect, useId, useRef, useState, type FormEvent } from "react";
import { Button } from "../../components/ui/button";
import { Field, Textarea } from "../../components/ui/field";
import { ErrorNote, Loading } from "../../components/ui/status";
import { chatApi, memoryKey, type MemoryItem } from "./api";

/** Why `text` can't be saved as a value (it must be JSON), or undefined when it can. */
export function valueProblem(text: string): string | undefined {
	if (!text.trim()) return "Write a value, or use Clear to forget this one.";
	try {
		JSON.parse(text);
		return undefined;
	} catch {
		return "The agent can't read this value. Put text in quotes, like \"Porto\"; numbers, true and false go without them.";
	}
}

const shown = (value: unknown) => JSON.stringify(value, null, 2);
const when = (at: string) => new Date(at.replace(" ", "T")).toLocaleString();

type MemoryPanelProps = { id: string; conversation: string; onClose: () => void };

/** What the agent remembers in the open conversation; its owner changes or clears each value. Beside
 * the chat on wide screens; below that it covers the chat (all of it on a phone) until closed. */
export function MemoryPanel({ id, conversation, onClose }: MemoryPanelProps) {
	const memory = useQuery({ queryKey: memoryKey(conversation), queryFn: () => chatApi.memory(conversation) });
	const heading = useRef<HTMLHeadingElement>(null);
	useEffect(() => heading.current?.focus(), []);
	return (
		<section
			id={id}
			aria-labelledby={`${id}-title`}
			className="absolute inset-0 z-10 flex flex-col gap-3 overflow-y-auto bg-white p-4 sm:left-auto sm:w-96 sm:border-l sm:border-slate-200 sm:shadow-xl xl:static xl:w-80 xl:shrink-0 xl:shadow-none"
			onKeyDown={(event) => event.key === "Escape" && !(event.target instanceof HTMLTextAreaElement) && onClose()} // a value being typed stays
		>
			<div className="flex items-start gap-2">
				<div className="min-w-0 flex-1">
					<h2 id={`${id}-title`} ref={heading} tabIndex={-1} className="text-base font-semibold text-slate-900 focus:outline-none">
						Memory
					</h2>
					<p className="text-sm text-slate-600">What the agent remembers in this conversation.</p>
				</div>
				<Button variant="ghost" size="icon" aria-label="Close memory" onClick={onClose}>
					<X className="h-4 w-4" aria-hidden />
				</Button>
			</div>
			{memory.isPending ? <Loading label="Loading what the agent remembers…" /> : null}
			{memory.isError ? <ErrorNote error={memory.error} /> : null}
			{memory.data?.length === 0 ? <p className="text-sm text-slate-500">Nothing yet. When the agent saves something to remember, it shows here.</p> : null}
			{memory.data?.length ? (
				<ul aria-label="Remembered values" className="grid gap-3">
					{memory.data.map((item) => (
						<li key={item.key}>
							<Remembered conversation={conversation} item={item} onCleared={() => heading.current?.focus()} />
						</li>
					))}
				</ul>
			) : null}
		</section>
	);
}

type RememberedProps = { conversation: string; item: MemoryItem; onCleared: () => void };

function Remembered({ conversation, item, onCleared }: RememberedProps) {
	const queryClient = useQueryClient();
	const [draft, setDraft] = useState<string | null>(null); // the value being changed, as typed
	const [problem, setProblem] = useState<string>();
	const [confirming, setConfirming] = useState(false);
	const questionId = useId();
	const save = useMutation({
		mutationFn: (value: string) => chatApi.remember(conversation, item.key, value),
		onSuccess: (items, value) => {
			queryClient.setQueryData(memoryKey(conversation), items);
			setDraft(null);
			setConfirming(false);
			if (!value) onCleared();
		},
	});
	const submit = (event: FormEvent) => {
		event.preventDefault();
		const refused = valueProblem(draft ?? "");
		setProblem(refused);
		if (!refused) save.mutate((draft ?? "").trim());
	};
	const edit = () => {
		save.reset();
		setProblem(undefined);
		setConfirming(false);
		setDraft(shown(item.value));
	};

	return (
		<article aria-label={item.key} className="grid gap-2 rounded-md border border-slate-200 p-3" data-testid="memory-item">
			<h3 className="text-sm font-medium text-slate-900 [overflow-wrap:anywhere]">{item.key}</h3>
			{draft === null ? (
				<>
					<pre className="max-h-48 overflow-auto whitespace-pre-wrap rounded bg-slate-50 p-2 text-xs text-slate-800 [overflow-wrap:anywhere]">{shown(item.value)}</pre>
					<p className="text-xs text-slate-500">
						{item.updated_at ? `Saved ${when(item.updated_at)}. ` : ""}
						{item.inject ? "" : "The agent looks it up only when it needs it."}
					</p>
					{confirming ? (
						<div role="alertdialog" aria-labelledby={questionId} className="grid gap-2 rounded-md border border-red-200 bg-red-50 p-2 text-sm">
							<p id={questionId}>Clear “{item.key}”? The agent forgets it for the rest of this conversation.</p>
							<div className="flex flex-wrap gap-2">
								<Button size="sm" variant="danger" disabled={save.isPending} onClick={() => save.mutate("")}>
									{save.isPending ? "Clearing…" : "Clear it"}
								</Button>
								<Button size="sm" variant="outline" autoFocus onClick={() => setConfirming(false)}>
									Keep it
								</Button>
							</div>
						</div>
					) : (
						<div className="flex flex-wrap gap-2">
							<Button size="sm" variant="outline" aria-label={`Edit ${item.key}`} onClick={edit}>
								Edit
							</Button>
							<Button size="sm" variant="outline" aria-label={`Clear ${item.key}`} onClick={() => {
									save.reset();
									setConfirming(true);
								}}>
								Clear
							</Button>
						</div>
					)}
				</>
			) : (
				<form className="grid gap-2" onSubmit={submit} noValidate>
					<Field label={`New value of ${item.key}`} error={problem} hint={<>Text goes in quotes, like "Porto". Numbers, true and false go without them; a list goes in [ ] and named values in {"{ }"}.</>}>
						{(props) => <Textarea rows={4} className="font-mono text-xs" value={draft} autoFocus onChange={(event) => setDraft(event.target.value)} {...props} />}
					</Field>
					<div className="flex flex-wrap gap-2">
						<Button type="submit" size="sm" disabled={save.isPending}>
							{save.isPending ? "Saving…" : "Save"}
						</Button>
						<Button size="sm" variant="outline" onClick={() => setDraft(null)}>
							Cancel
						</Button>
					</div>
				</form>
			)}
			{save.isError ? <ErrorNote error={save.error} /> : null}
		</article>
	);
}
