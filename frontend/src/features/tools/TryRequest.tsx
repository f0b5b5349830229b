import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { Button } from "../../components/ui/button";
import { Field, Input, Select, Textarea } from "../../components/ui/field";
import { Section } from "../../components/ui/section";
import { ErrorNote } from "../../components/ui/status";
import { tryRequest, type TryAnswer, type TryRequest as Request } from "./api";

type TryRequestProps = { tool: string; post: boolean; baseUrl: string; dirty: boolean };

/** Sends one request the way the agent would, with the tool's saved address and headers. */
export function TryRequest({ tool, post, baseUrl, dirty }: TryRequestProps) {
	const [request, setRequest] = useState<Request>({ url: "", params: "", body: "", body_format: "json" });
	const set = (patch: Partial<Request>) => setRequest((current) => ({ ...current, ...patch }));
	const send = useMutation({ mutationFn: () => tryRequest(tool, request, post) });
	return (
		<Section title="Try this request">
			<form
				className="grid gap-3"
				aria-label="Try this request"
				onSubmit={(event) => {
					event.preventDefault();
					send.mutate();
				}}
			>
				{dirty ? <p className="text-sm text-amber-700">Save first: the request uses the tool's saved address and headers.</p> : null}
				<Field label={baseUrl ? "Path" : "Web address"} hint={baseUrl ? `Added after ${baseUrl}, e.g. /items/42. Leave empty for the address itself.` : "The full address, e.g. https://api.example.com/items/42."}>
					{(props) => <Input value={request.url} onChange={(e) => set({ url: e.target.value })} {...props} />}
				</Field>
				<Field label="Query parameters" hint='Optional, e.g. {"q": "shoes", "page": 2}'>
					{(props) => <Textarea rows={2} className="font-mono" value={request.params} onChange={(e) => set({ params: e.target.value })} {...props} />}
				</Field>
				{post ? (
					<>
						<Field label="Body" hint='Optional, e.g. {"title": "New item"}'>
							{(props) => <Textarea rows={3} className="font-mono" value={request.body} onChange={(e) => set({ body: e.target.value })} {...props} />}
						</Field>
						<Field label="Send the body as">
							{(props) => (
								<Select value={request.body_format} onChange={(e) => set({ body_format: e.target.value as Request["body_format"] })} {...props}>
									<option value="json">JSON</option>
									<option value="form">A web form</option>
								</Select>
							)}
						</Field>
					</>
				) : null}
				<Button type="submit" className="justify-self-start" disabled={send.isPending}>
					{send.isPending ? "Sending…" : "Send"}
				</Button>
			</form>
			{send.isError ? <ErrorNote error={send.error} /> : null}
			{send.data ? <Answer answer={send.data} /> : null}
		</Section>
	);
}

function Answer({ answer }: { answer: TryAnswer }) {
	const show = (value: unknown) => (typeof value === "string" ? value : JSON.stringify(value, null, 2));
	return (
		<div className="grid gap-2" aria-label="Answer" role="region">
			{answer.error ? <ErrorNote error={answer.error} /> : null}
			{answer.status_code ? (
				<>
					<p className="text-sm">
						<span className="font-medium">Answer {answer.status_code}</span> from <span className="break-all">{answer.final_url}</span>
					</p>
					<h3 className="text-xs font-medium text-slate-600">What the agent reads</h3>
					<pre className="max-h-72 overflow-auto rounded-md bg-slate-50 p-2 text-xs">{show(answer.data)}</pre>
					<details>
						<summary className="cursor-pointer text-xs text-slate-600">Headers</summary>
						<pre className="max-h-48 overflow-auto rounded-md bg-slate-50 p-2 text-xs">{show(answer.headers)}</pre>
					</details>
				</>
			) : null}
		</div>
	);
}
