import { useMutation, useQueryClient } from "@tanstack/react-query";
import { RefreshCw, Search, Trash2, Upload } from "lucide-react";
import { useRef, useState, type FormEvent } from "react";
import { Link, useParams } from "react-router";
import { Button } from "../../components/ui/button";
import { Field, Input, Textarea } from "../../components/ui/field";
import { Section } from "../../components/ui/section";
import { Empty, ErrorNote, Loading, StatusBadge } from "../../components/ui/status";
import { uploadFile } from "../../lib/api";
import { addInput, deleteInput, KIND_LABELS, rebuildIndex, testSearch, useProgress, useSource, type AddedInput, type SourceDetail } from "./api";
import { ProgressBar } from "./ProgressBar";

export default function SourcePage() {
	const { source = "" } = useParams();
	const detail = useSource(source);
	if (detail.isPending) return <Loading />;
	if (detail.error) return <div className="p-6"><ErrorNote error={detail.error} /></div>;
	return <SourceView source={detail.data} />;
}

function SourceView({ source }: { source: SourceDetail }) {
	const progress = useProgress(source.name);
	return (
		<div className="grid gap-4 p-4 md:p-6 xl:grid-cols-[minmax(0,1fr)_24rem]">
			<div className="grid content-start gap-4">
				<header className="grid gap-1">
					<Link to="/knowledge" className="text-sm text-blue-700 hover:underline">All knowledge</Link>
					<div className="flex flex-wrap items-center gap-2">
						<h1 className="text-xl font-semibold">{source.source_name}</h1>
						<StatusBadge status={progress.data?.status ?? source.status} />
						<span className="text-xs text-slate-500">{KIND_LABELS[source.knowledge_type]}</span>
					</div>
					{source.description ? <p className="text-sm text-slate-600">{source.description}</p> : null}
				</header>
				<ProgressBar name={source.source_name} progress={progress.data ?? { ...source, source: source.name }} />
				{(progress.data?.last_error ?? source.last_error) ? <ErrorNote error={progress.data?.last_error ?? source.last_error} /> : null}
				{source.can_write ? <AddPanel source={source.name} /> : null}
				<Inputs source={source} />
			</div>
			<aside className="grid content-start gap-4">
				<SearchPanel source={source.name} />
				{source.can_write ? <RebuildPanel source={source.name} /> : null}
			</aside>
		</div>
	);
}

function useAdd(source: string) {
	const queryClient = useQueryClient();
	return useMutation({
		mutationFn: (values: Parameters<typeof addInput>[1]) => addInput(source, values),
		onSuccess: () => {
			void queryClient.invalidateQueries({ queryKey: ["knowledge", source] });
			void queryClient.invalidateQueries({ queryKey: ["knowledge-progress", source] });
		},
	});
}

function AddPanel({ source }: { source: string }) {
	const add = useAdd(source);
	const [tab, setTab] = useState<"text" | "url" | "files">("files");
	const [title, setTitle] = useState("");
	const [text, setText] = useState("");
	const [url, setUrl] = useState("");
	const [note, setNote] = useState<string | null>(null);
	const [uploadError, setUploadError] = useState<string | null>(null);
	const [uploading, setUploading] = useState(false);
	const files = useRef<HTMLInputElement>(null);
	const said = (added: AddedInput) => setNote(added.already_there ? "This text is already in the source; nothing was added." : "Added. It is being read and indexed now.");
	const submit = (event: FormEvent) => {
		event.preventDefault();
		setNote(null);
		if (tab === "text") {
			if (!text.trim()) return setNote("Paste or type some text first.");
			add.mutate({ input_type: "Text", text, ...(title.trim() ? { title: title.trim() } : {}) }, { onSuccess: (added) => { said(added); setText(""); setTitle(""); } });
		} else if (tab === "url") {
			if (!/^https?:\/\/\S+$/i.test(url.trim())) return setNote("Enter a web address that starts with http:// or https://.");
			add.mutate({ input_type: "URL", url: url.trim() }, { onSuccess: (added) => { said(added); setUrl(""); } });
		}
	};
	const upload = async (chosen: FileList | null) => {
		setUploadError(null);
		setNote(null);
		setUploading(true);
		const failed: string[] = [];
		for (const file of Array.from(chosen ?? [])) {
			try {
				const uploaded = await uploadFile(file);
				await add.mutateAsync({ input_type: "File", file_url: uploaded.file_url });
			} catch (error) {
				failed.push(`${file.name}: ${error instanceof Error ? error.message : String(error)}`);
			}
		}
		setUploading(false);
		if (files.current) files.current.value = "";
		if (failed.length) setUploadError(failed.join(" "));
		else setNote("Added. The files are being read and indexed now.");
	};
	const tabs = [["files", "Upload files"], ["url", "Web address"], ["text", "Text"]] as const;
	return (
		<Section title="Add to this source">
			<div role="tablist" aria-label="What to add" className="flex gap-1">
				{tabs.map(([key, label]) => (
					<Button key={key} role="tab" aria-selected={tab === key} variant={tab === key ? "default" : "outline"} size="sm" onClick={() => setTab(key)}>
						{label}
					</Button>
				))}
			</div>
			{tab === "files" ? (
				<div className="grid gap-2">
					<label className="text-sm text-slate-700" htmlFor="knowledge-files">PDF, Word, Excel, PowerPoint, web pages and text files, up to 100 MB each.</label>
					<input id="knowledge-files" ref={files} type="file" multiple className="sr-only" data-testid="knowledge-files" onChange={(e) => void upload(e.target.files)} />
					<Button variant="outline" className="justify-self-start" disabled={uploading} onClick={() => files.current?.click()}>
						<Upload className="h-4 w-4" aria-hidden /> {uploading ? "Uploading…" : "Choose files"}
					</Button>
				</div>
			) : (
				<form noValidate className="grid gap-3" onSubmit={submit}>
					{tab === "text" ? (
						<>
							<Field label="Title" hint="Optional; answers cite it.">
								{(props) => <Input value={title} onChange={(e) => setTitle(e.target.value)} {...props} />}
							</Field>
							<Field label="Text">
								{(props) => <Textarea rows={6} value={text} onChange={(e) => setText(e.target.value)} {...props} />}
							</Field>
						</>
					) : (
						<Field label="Web address" hint="A public page or file. Huf reads it once; add it again to read a newer version.">
							{(props) => <Input type="url" placeholder="https://" value={url} onChange={(e) => setUrl(e.target.value)} {...props} />}
						</Field>
					)}
					<Button type="submit" className="justify-self-start" disabled={add.isPending}>{add.isPending ? "Adding…" : "Add"}</Button>
				</form>
			)}
			{add.error && !uploading ? <ErrorNote error={add.error} /> : null}
			{uploadError ? <ErrorNote error={uploadError} /> : null}
			{note ? <p role="status" className="text-sm text-slate-700">{note}</p> : null}
		</Section>
	);
}

function Inputs({ source }: { source: SourceDetail }) {
	const queryClient = useQueryClient();
	const [confirming, setConfirming] = useState<string | null>(null);
	const remove = useMutation({
		mutationFn: deleteInput,
		onSuccess: () => {
			setConfirming(null);
			void queryClient.invalidateQueries({ queryKey: ["knowledge", source.name] });
			void queryClient.invalidateQueries({ queryKey: ["knowledge-progress", source.name] });
		},
	});
	if (!source.inputs.length) return <Empty title="Nothing here yet">{source.can_write ? "Add files, web pages or text above." : "Nobody has added anything to this source yet."}</Empty>;
	return (
		<Section title="Documents">
			{remove.error ? <ErrorNote error={remove.error} /> : null}
			<ul className="divide-y divide-slate-100">
				{source.inputs.map((input) => (
					<li key={input.name} className="grid gap-1 py-2">
						<div className="flex flex-wrap items-center gap-2">
							<span className="font-medium text-slate-900">{input.title || input.url || "Untitled"}</span>
							<StatusBadge status={input.status} />
							<span className="text-xs text-slate-500">
								{input.duplicate_of ? "Same content as another document; stored once" : input.status === "Indexed" ? `${input.chunk_count} ${input.chunk_count === 1 ? "passage" : "passages"}` : ""}
							</span>
							{source.can_write ? (
								confirming === input.name ? (
									<span className="ml-auto flex items-center gap-2 text-sm">
										Remove it and its passages?
										<Button size="sm" variant="danger" disabled={remove.isPending} onClick={() => remove.mutate(input.name)}>Remove</Button>
										<Button size="sm" variant="outline" onClick={() => setConfirming(null)}>Keep</Button>
									</span>
								) : (
									<Button size="icon" variant="ghost" className="ml-auto" aria-label={`Remove ${input.title || input.url || "this document"}`} onClick={() => setConfirming(input.name)}>
										<Trash2 className="h-4 w-4" aria-hidden />
									</Button>
								)
							) : null}
						</div>
						{input.error ? <p className="text-sm text-red-700">{input.error}</p> : null}
					</li>
				))}
			</ul>
		</Section>
	);
}

function SearchPanel({ source }: { source: string }) {
	const [query, setQuery] = useState("");
	const search = useMutation({ mutationFn: (q: string) => testSearch(source, q) });
	return (
		<Section title="Try a search">
			<form
				role="search"
				className="flex gap-2"
				onSubmit={(event) => {
					event.preventDefault();
					if (query.trim()) search.mutate(query.trim());
				}}
			>
				<Input aria-label="Search this source" placeholder="Ask what an agent would ask" value={query} onChange={(e) => setQuery(e.target.value)} />
				<Button type="submit" size="icon" aria-label="Search" disabled={search.isPending}>
					<Search className="h-4 w-4" aria-hidden />
				</Button>
			</form>
			{search.error ? <ErrorNote error={search.error} /> : null}
			{search.data ? (
				search.data.results.length ? (
					<ol className="grid gap-2" aria-label="Search results">
						{search.data.results.map((hit) => (
							<li key={`${hit.input}:${hit.text.slice(0, 20)}`} className="rounded-md bg-slate-50 p-2 text-sm">
								<p className="text-xs font-medium text-slate-600">{hit.where ? `${hit.title}, ${hit.where}` : hit.title}</p>
								<p className="whitespace-pre-wrap text-slate-800">{hit.text}</p>
							</li>
						))}
					</ol>
				) : (
					<p className="text-sm text-slate-600">Nothing in this source matches.</p>
				)
			) : null}
		</Section>
	);
}

function RebuildPanel({ source }: { source: string }) {
	const queryClient = useQueryClient();
	const rebuild = useMutation({
		mutationFn: () => rebuildIndex(source),
		onSuccess: () => void queryClient.invalidateQueries({ queryKey: ["knowledge-progress", source] }),
	});
	return (
		<Section title="Rebuild the index">
			<p className="text-sm text-slate-600">Reads every document again. Searches keep using the current index until the new one is ready.</p>
			<Button variant="outline" className="justify-self-start" disabled={rebuild.isPending} onClick={() => rebuild.mutate()}>
				<RefreshCw className="h-4 w-4" aria-hidden /> {rebuild.isPending ? "Starting…" : "Rebuild index"}
			</Button>
			{rebuild.error ? <ErrorNote error={rebuild.error} /> : null}
			{rebuild.isSuccess ? <p role="status" className="text-sm text-slate-700">Rebuilding has started.</p> : null}
		</Section>
	);
}
