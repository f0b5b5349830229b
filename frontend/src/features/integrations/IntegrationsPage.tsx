import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Plus } from "lucide-react";
import { useState } from "react";
import { columnsOf, DataTable, hiddenHeader, type Columns } from "../../components/DataTable";
import { ListPage } from "../../components/ListPage";
import { Button } from "../../components/ui/button";
import { ConfirmDialog } from "../../components/ui/confirm";
import { Dialog } from "../../components/ui/dialog";
import { Done, Empty, ErrorNote, Loading } from "../../components/ui/status";
import { deleteSettings, OVERVIEW, useIntegrations, type Service, type SettingsRow } from "./api";
import { IntegrationForm } from "./IntegrationForm";
import { serviceLabel } from "./rules";
import { TestDialog } from "./TestDialog";

type Editing = { service: Service; name: string | null } | null;

/** Where agents can send messages: each service's settings, recipients and a test message. */
export default function IntegrationsPage() {
	const overview = useIntegrations();
	const [editing, setEditing] = useState<Editing>(null);
	const [testing, setTesting] = useState<string | null>(null);
	const [deleting, setDeleting] = useState<string | null>(null);
	const [done, setDone] = useState<string | null>(null);
	const services = overview.data?.services ?? [];
	const serviceOf = (row: SettingsRow) => services.find((service) => service.name === row.service);
	return (
		<ListPage
			title="Integrations"
			width="4xl"
			description="Where agents can send messages: email, a team chat or a notification on this site. Agents with the send_message tool send through these settings by service and recipient name; keys and webhook addresses stay on the server."
		>
			{overview.isPending ? <Loading /> : overview.isError ? <ErrorNote error={overview.error} /> : (
				<>
					<section aria-labelledby="add-heading" className="grid gap-2">
						<h2 id="add-heading" className="text-base font-semibold">Add an integration</h2>
						<ul className="grid gap-2 sm:grid-cols-3">
							{services.map((service) => (
								<li key={service.name} className="grid gap-2 rounded-lg border border-slate-200 bg-white p-3">
									<h3 className="text-sm font-semibold">{serviceLabel(service)}</h3>
									<p className="text-xs text-slate-600">{service.description}</p>
									<Button variant="outline" size="sm" className="justify-self-start self-end" onClick={() => setEditing({ service, name: null })}>
										<Plus className="h-4 w-4" aria-hidden />
										Add {serviceLabel(service).toLowerCase()}
									</Button>
								</li>
							))}
						</ul>
					</section>
					<Done text={done} />
					<section aria-labelledby="configured-heading" className="grid gap-2">
						<h2 id="configured-heading" className="text-base font-semibold">Set up</h2>
						{overview.data.settings.length ? (
							<Configured rows={overview.data.settings} serviceOf={serviceOf} onEdit={(row) => { const service = serviceOf(row); if (service) setEditing({ service, name: row.name }); }} onTest={setTesting} onDelete={setDeleting} />
						) : (
							<Empty title="No integrations yet">Add one above; agents can then send messages through it.</Empty>
						)}
					</section>
				</>
			)}
			<Dialog
				open={Boolean(editing)}
				onOpenChange={(open) => (open ? undefined : setEditing(null))}
				title={editing?.name ? `Edit ${editing.name}` : `Add ${serviceLabel(editing?.service).toLowerCase()}`}
				{...(editing?.service.description ? { description: editing.service.description } : {})}
			>
				{editing ? <IntegrationForm service={editing.service} name={editing.name} agents={overview.data?.agents ?? []} onDone={(saved) => { setEditing(null); setDone(`${saved} is saved.`); }} /> : null}
			</Dialog>
			{testing ? <TestDialog name={testing} onClose={() => setTesting(null)} /> : null}
			{deleting ? <DeleteDialog name={deleting} onClose={() => setDeleting(null)} onDeleted={() => { setDone(`${deleting} is deleted.`); setDeleting(null); }} /> : null}
		</ListPage>
	);
}

const column = columnsOf<SettingsRow>();

type ConfiguredProps = { rows: SettingsRow[]; serviceOf: (row: SettingsRow) => Service | undefined; onEdit: (row: SettingsRow) => void; onTest: (name: string) => void; onDelete: (name: string) => void };

function Configured({ rows, serviceOf, onEdit, onTest, onDelete }: ConfiguredProps) {
	const columns: Columns<SettingsRow> = [
		column.accessor("name", { header: "Name", meta: { className: "font-medium [overflow-wrap:anywhere]" } }),
		column.accessor("service", { header: "Service", cell: ({ row: { original } }) => serviceLabel(serviceOf(original), original.service) }),
		column.accessor("recipients", { header: "Recipients" }),
		column.accessor("is_active", {
			header: "Status",
			cell: ({ row: { original } }) => (
				<>
					{original.is_active ? "On" : "Off"}
					{original.is_default ? <span className="block text-xs text-slate-600">Default for its service</span> : null}
				</>
			),
		}),
		column.display({
			id: "actions",
			header: hiddenHeader("Actions"),
			cell: ({ row: { original } }) => (
				<div className="flex flex-wrap justify-end gap-1">
					<Button variant="ghost" size="sm" aria-label={`Edit ${original.name}`} disabled={!serviceOf(original)} onClick={() => onEdit(original)}>
						Edit
					</Button>
					<Button variant="outline" size="sm" aria-label={`Send a test message through ${original.name}`} disabled={!original.is_active} onClick={() => onTest(original.name)}>
						Send a test message
					</Button>
					<Button variant="ghost" size="sm" aria-label={`Delete ${original.name}`} onClick={() => onDelete(original.name)}>
						Delete
					</Button>
				</div>
			),
		}),
	];
	return <DataTable columns={columns} rows={rows} rowKey={(row) => row.name} caption="Integrations set up on this site" />;
}

function DeleteDialog({ name, onClose, onDeleted }: { name: string; onClose: () => void; onDeleted: () => void }) {
	const queryClient = useQueryClient();
	const remove = useMutation({
		mutationFn: () => deleteSettings(name),
		onSuccess: async () => {
			await queryClient.invalidateQueries({ queryKey: OVERVIEW });
			onDeleted();
		},
	});
	return (
		<ConfirmDialog
			title={`Delete ${name}?`}
			description="Agents can no longer send messages through these settings. Their keys and recipients are deleted too."
			confirm="Delete"
			confirming="Deleting…"
			action={remove}
			onClose={onClose}
		/>
	);
}
