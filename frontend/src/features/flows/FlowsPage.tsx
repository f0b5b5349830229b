import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Inbox } from "lucide-react";
import { useState } from "react";
import { Link, useNavigate } from "react-router";
import { columnsOf, DataTable, type Columns } from "../../components/DataTable";
import { CoverLink, DataList, ListPage, NewButton } from "../../components/ListPage";
import { Button } from "../../components/ui/button";
import { Dialog } from "../../components/ui/dialog";
import { Field, Form, Input } from "../../components/ui/field";
import { Empty, ErrorNote, StatusBadge } from "../../components/ui/status";
import { useCan } from "../../lib/me";
import { saveFlow, useFlows, type FlowRow } from "./api";
import { flowIdFromName, flowIdProblem, when } from "./rules";

const column = columnsOf<FlowRow>();
const COLUMNS: Columns<FlowRow> = [
	column.accessor("flow_name", {
		header: "Flow",
		cell: ({ row: { original: flow } }) => (
			<>
				{/* the whole row opens the flow (the link covers it); its last run's link sits above */}
				<CoverLink className="font-medium" to={`/flows/${encodeURIComponent(flow.flow_id)}`}>
					{flow.flow_name}
				</CoverLink>
				<p className="text-xs text-slate-500">{flow.flow_id}</p>
			</>
		),
	}),
	column.accessor("status", { header: "Status" }),
	column.accessor("version", { header: "Version", meta: { align: "right" } }),
	column.accessor("last_run", {
		header: "Last run",
		cell: ({ getValue }) => {
			const run = getValue();
			return run ? (
				<Link className="relative z-10 inline-flex items-center gap-2 hover:underline" to={`/flows/runs/${run.name}`}>
					<StatusBadge status={run.status} />
					<span className="text-xs text-slate-600">{when(run.creation)}</span>
				</Link>
			) : (
				<span className="text-xs text-slate-500">Not run yet</span>
			);
		},
	}),
	column.display({ id: "changed", header: "Changed", meta: { className: "text-xs text-slate-600" }, cell: ({ row: { original: flow } }) => `${flow.updated_by ?? flow.modified_by}, ${when(flow.updated_at ?? flow.modified)}` }),
];

export default function FlowsPage() {
	const can = useCan();
	const writer = can("flow.write");
	const flows = useFlows();
	const [creating, setCreating] = useState(false);
	return (
		<ListPage
			title="Flows"
			width="5xl"
			actions={
				can("flow.run") || writer ? (
					<>
						{can("flow.run") ? (
							<Button asChild variant="outline">
								<Link to="/flows/approvals">
									<Inbox className="h-4 w-4" aria-hidden />
									Waiting for me
								</Link>
							</Button>
						) : null}
						{writer ? <NewButton onClick={() => setCreating(true)}>New flow</NewButton> : null}
					</>
				) : null
			}
		>
			<p className="text-sm text-slate-600">A flow is a process written once and run many times: steps that ask agents, call web addresses, wait for a person's approval and more.</p>
			<DataList query={flows} empty={<Empty title="No flows yet">{writer ? "Create a flow, then add its steps." : "Ask whoever builds flows here to set one up."}</Empty>}>
				{(rows) => <DataTable columns={COLUMNS} rows={rows} rowKey={(flow) => flow.flow_id} linkedRows />}
			</DataList>
			{writer ? <NewFlowDialog open={creating} onOpenChange={setCreating} /> : null}
		</ListPage>
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
			<Form
				className="grid gap-3"
				onSubmit={() => {
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
			</Form>
		</Dialog>
	);
}
