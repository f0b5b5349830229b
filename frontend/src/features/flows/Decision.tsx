import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useId, useState } from "react";
import { Button } from "../../components/ui/button";
import { Textarea } from "../../components/ui/field";
import { ErrorNote } from "../../components/ui/status";
import { decide } from "./api";

/** Approve or Reject a run waiting for the signed-in person, with an optional comment. */
export function Decision({ flowRun }: { flowRun: string }) {
	const queryClient = useQueryClient();
	const id = useId();
	const [comment, setComment] = useState("");
	const send = useMutation({
		mutationFn: (approve: boolean) => decide(flowRun, approve, comment.trim()),
		onSuccess: async () => {
			await queryClient.invalidateQueries({ queryKey: ["flow-run", flowRun] });
			await queryClient.invalidateQueries({ queryKey: ["flow-runs"] });
		},
	});
	if (send.isSuccess) return <p role="status" className="text-sm text-green-700">{send.variables ? "Approved: the flow goes on." : "Rejected."}</p>;
	return (
		<div className="grid gap-2">
			<label htmlFor={id} className="text-sm font-medium text-slate-800">Comment (optional)</label>
			<Textarea id={id} rows={2} value={comment} onChange={(e) => setComment(e.target.value)} />
			{send.isError ? <ErrorNote error={send.error} /> : null}
			<div className="flex gap-2">
				<Button disabled={send.isPending} onClick={() => send.mutate(true)}>Approve</Button>
				<Button variant="outline" disabled={send.isPending} onClick={() => send.mutate(false)}>Reject</Button>
			</div>
		</div>
	);
}
