import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Inbox, Plus } from "lucide-react";
import { useState } from "react";
import { Link, useNavigate } from "react-router";
import { Button } from "../../components/ui/button";
import { Dialog } from "../../components/ui/dialog";
import { Field, Input } from "../../components/ui/field";
import { Empty, ErrorNote, Loading, StatusBadge } from "../../components/ui/status";
import { useCan } from "../../lib/me";
import { saveFlow, useFlows } from "./api";
import { flowIdFromName, flowIdProblem, when } from "./rules";

export default function FlowsPage() {
	const can = useCan();
	const writer = can("flow.write");
	const flows = useFlows();
	const [creating, setCreating] = useState(false);
	return (
		<div className="mx-auto grid max-w-5xl grid-cols-1 gap-4 p-4 md:p-6">
			<header className="flex flex-wrap items-center gap-3">
				<h1 className="text-xl font-semibold">Flows</h1>
				{can("flow.run") ? (
					<Button asChild variant="outline" className="ml-auto">
						<Link to="/flows/approvals">
							<Inbox className="h-4 w-4" aria-hidden />
							Waiting for me
						</Link>
					</Button>
				) : null}
				{writer ? (
					<Button className={can("flow.run") ? undefined : "ml-auto"} onClick={() => setCreating(true)}>
						<Plus className="h-4 w-4" aria-hidden />
						New flow
					</Button>
				) : null}
			</header>
			<p className="text-sm text-slate-600">A flow is a process written once and run many times: steps that ask agents, call web addresses, wait for a person's approval and more.</p>
			{flows.isPending ? <Loading /> : null}
			{flows.isError ? <ErrorNote error={flows.error} /> : null}
			{flows.data && !flows.data.length ? <Empty title="No flows yet">{writer ? "Create a flow, then add its steps." : "Ask whoever builds flows here to set one up."}</Empty> : null}
			{flows.data?.length ? (
				<div className="overflow-x-auto rounded-lg border border-slate-200 bg-white">
					<table className="w-full text-left text-sm">
						<thead className="bg-slate-50 text-xs uppercase text-slate-500">
							<tr>
								<th scope="col" className="px-3 py-2">Flow</th>
								<th scope="col" className="px-3 py-2">Status</th>
								<th scope="col" className="px-3 py-2 text-right">Version</th>
								<th scope="col" className="px-3 py-2">Last run</th>
								<th scope="col" className="px-3 py-2">Changed</th>
							</tr>
						</thead>
						<tbody className="divide-y divide-slate-100">
							{flows.data.map((flow) => (
								<tr key={flow.flow_id} className="relative hover:bg-slate-50">
									<td className="px-3 py-2">
										{/* the whole row opens the flow (the link covers it); its last run's link sits above */}
										<Link className="font-medium text-blue-700 hover:underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-blue-500 after:absolute after:inset-0 after:content-['']" to={`/flows/${encodeURIComponent(flow.flow_id)}`}>
											{flow.flow_name}
										</Link>
										<p className="text-xs text-slate-500">{flow.flow_id}</p>
									</td>
									<td className="px-3 py-2">{flow.status}</td>
									<td className="px-3 py-2 text-right tabular-nums">{flow.version}</td>
									<td className="px-3 py-2">
										{flow.last_run ? (
											<Link className="relative z-10 inline-flex items-center gap-2 hover:underline" to={`/flows/runs/${flow.last_run.name}`}>
												<StatusBadge status={flow.last_run.status} />
												<span className="text-xs text-slate-600">{when(flow.last_run.creation)}</span>
											</Link>
										) : (
											<span className="text-xs text-slate-500">Not run yet</span>
										)}
									</td>
									<td className="px-3 py-2 text-xs text-slate-600">
										{flow.updated_by ?? flow.modified_by}, {when(flow.updated_at ?? flow.modified)}
									</td>
								</tr>
							))}
						</tbody>
					</table>
				</div>
			) : null}
			{writer ? <NewFlowDialog open={creating} onOpenChange={setCreating} /> : null}
		</div>
	);
}

function NewFlowDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
	const navigate = useNavigate();
	const queryClient = useQueryClient();
	const [name, setName] = useState("");
	const [id, setId] = useState("");
	const [idTouched, setIdTouched] = useState(false);
	const [tried, setTried] = useState(false);
	const flowId = idTouched ? id : flowIdFromName(name);
	const nameProblem = name.trim() ? undefined : "Give the flow a name.";
	const idProblem = flowIdProblem(flowId);
	const create = useMutation({
		mutationFn: () => saveFlow({ flow_id: flowId, flow_name: name.trim(), definition: { nodes: [], edges: [] } }),
		onSuccess: async (flow) => {
			await queryClient.invalidateQueries({ queryKey: ["flows"] });
			onOpenChange(false);
			navigate(`/flows/${encodeURIComponent(flow.flow_id)}`);
		},
	});
	return (
		<Dialog open={open} onOpenChange={onOpenChange} title="New flow" description="Name the flow; its ID is how other systems and triggers refer to it.">
			<form
				noValidate
				className="grid gap-3"
				onSubmit={(event) => {
					event.preventDefault();
					setTried(true);
					if (!nameProblem && !idProblem) create.mutate();
				}}
			>
				<Field label="Name" error={tried ? nameProblem : undefined}>
					{(props) => <Input value={name} onChange={(e) => setName(e.target.value)} {...props} />}
				</Field>
				<Field label="Flow ID" error={tried || idTouched ? idProblem : undefined} hint="Lower-case letters, digits and dashes. It can't be changed later.">
					{(props) => (
						<Input
							value={flowId}
							onChange={(e) => {
								setIdTouched(true);
								setId(e.target.value);
							}}
							{...props}
						/>
					)}
				</Field>
				{create.isError ? <ErrorNote error={create.error} /> : null}
				<Button type="submit" className="justify-self-end" disabled={create.isPending}>
					{create.isPending ? "Creating…" : "Create flow"}
				</Button>
			</form>
		</Dialog>
	);
}
