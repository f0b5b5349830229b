import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { useNavigate } from "react-router";
import { Button } from "../../components/ui/button";
import { Dialog } from "../../components/ui/dialog";
import { Field, Textarea } from "../../components/ui/field";
import { ErrorNote } from "../../components/ui/status";
import { runFlow } from "./api";
import { parseInput } from "./rules";

/** Start a run, with optional input (what the steps read as "trigger"), then open its page. */
export function RunDialog({ flowId, onClose }: { flowId: string; onClose: () => void }) {
	const navigate = useNavigate();
	const [input, setInput] = useState("");
	const [error, setError] = useState<string | undefined>();
	const start = useMutation({
		mutationFn: (payload: Record<string, unknown> | null) => runFlow(flowId, payload),
		onSuccess: ({ flow_run }) => navigate(`/flows/runs/${flow_run}`),
	});
	return (
		<Dialog open onOpenChange={(open) => (open ? undefined : onClose())} title="Run this flow" description="The flow runs with your permissions. Its steps can read the input below.">
			<form
				noValidate
				className="grid gap-3"
				onSubmit={(event) => {
					event.preventDefault();
					const found = parseInput(input);
					if (!found.ok) return setError(found.error);
					start.mutate(found.payload);
				}}
			>
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
					{start.isPending ? "Starting…" : "Start run"}
				</Button>
			</form>
		</Dialog>
	);
}
