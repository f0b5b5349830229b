import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Plus } from "lucide-react";
import { useState } from "react";
import { Button } from "../../components/ui/button";
import { Done, ErrorNote, Loading } from "../../components/ui/status";
import { byArea, deleteRole, useRoles, type CapabilityInfo, type HufRole } from "./api";
import { RoleDialog } from "./RoleDialog";

/** The built-in roles as they are, and custom ones an admin makes from chosen permissions. */
export function RolesPage() {
	const roles = useRoles();
	const [editing, setEditing] = useState<HufRole | "new" | null>(null);
	const [done, setDone] = useState<string | null>(null);
	if (roles.isPending) return <Loading />;
	if (roles.error) return <ErrorNote error={roles.error} />;
	const { capabilities } = roles.data;
	const builtIn = roles.data.roles.filter((role) => role.is_system);
	const custom = roles.data.roles.filter((role) => !role.is_system);
	return (
		<section aria-labelledby="roles-heading" className="grid gap-4">
			<div className="flex flex-wrap items-start gap-3">
				<div className="min-w-0 flex-1">
					<h2 id="roles-heading" className="text-base font-semibold">Roles</h2>
					<p className="text-sm text-slate-600">A role is a set of permissions. The built-in roles can't be changed; make your own role when none of them fits.</p>
				</div>
				<Button onClick={() => setEditing("new")}>
					<Plus className="h-4 w-4" aria-hidden />
					New role
				</Button>
			</div>
			<Done text={done} />
			<h3 className="text-sm font-semibold text-slate-800">Your roles</h3>
			{custom.length ? (
				<ul className="grid gap-3" aria-label="Your roles">
					{custom.map((role) => (
						<RoleCard key={role.name} role={role} capabilities={capabilities} onEdit={() => setEditing(role)} onDeleted={() => setDone(`The role ${role.name} was deleted.`)} />
					))}
				</ul>
			) : (
				<p className="text-sm text-slate-600">None yet. Make one with New role.</p>
			)}
			<h3 className="text-sm font-semibold text-slate-800">Built-in roles</h3>
			<ul className="grid gap-3" aria-label="Built-in roles">
				{builtIn.map((role) => (
					<RoleCard key={role.name} role={role} capabilities={capabilities} />
				))}
			</ul>
			{editing ? (
				<RoleDialog
					role={editing === "new" ? null : editing}
					capabilities={capabilities}
					onClose={() => setEditing(null)}
					onSaved={(name) => {
						setDone(editing === "new" ? `The role ${name} was made. Give it to people under People and roles.` : `The role ${name} was saved.`);
						setEditing(null);
					}}
				/>
			) : null}
		</section>
	);
}

type CardProps = { role: HufRole; capabilities: CapabilityInfo[]; onEdit?: () => void; onDeleted?: () => void };

function RoleCard({ role, capabilities, onEdit, onDeleted }: CardProps) {
	const queryClient = useQueryClient();
	const [confirming, setConfirming] = useState(false);
	const remove = useMutation({
		mutationFn: () => deleteRole(role.name),
		onSuccess: async () => {
			onDeleted?.();
			await Promise.all([queryClient.invalidateQueries({ queryKey: ["huf-roles"] }), queryClient.invalidateQueries({ queryKey: ["huf-people"] })]);
		},
	});
	const held = capabilities.filter((capability) => role.capabilities.includes(capability.name));
	return (
		<li className="grid gap-2 rounded-lg border border-slate-200 bg-white p-4" aria-label={role.name}>
			<div className="flex flex-wrap items-center gap-2">
				<h4 className="font-semibold text-slate-900 [overflow-wrap:anywhere]">{role.name}</h4>
				<span className="text-xs text-slate-500">{role.people === 1 ? "1 person has it" : `${role.people} people have it`}</span>
				{onEdit && !confirming ? (
					<div className="ml-auto flex gap-2">
						<Button variant="outline" size="sm" aria-label={`Change ${role.name}`} onClick={onEdit}>
							Change
						</Button>
						<Button variant="outline" size="sm" aria-label={`Delete ${role.name}`} onClick={() => setConfirming(true)}>
							Delete
						</Button>
					</div>
				) : null}
			</div>
			{role.role_description ? <p className="text-sm text-slate-700 [overflow-wrap:anywhere]">{role.role_description}</p> : null}
			{confirming ? (
				<div role="group" aria-label={`Delete ${role.name}?`} className="flex flex-wrap items-center gap-2 rounded-md bg-red-50 p-2 text-sm text-red-900">
					{role.people ? `Delete ${role.name}? The people who have it lose it and can't use Huf until they get another role.` : `Delete ${role.name}?`}
					<Button size="sm" variant="danger" disabled={remove.isPending} onClick={() => remove.mutate()}>
						Delete
					</Button>
					<Button size="sm" variant="outline" autoFocus onClick={() => setConfirming(false)}>
						Keep
					</Button>
				</div>
			) : null}
			{remove.error ? <ErrorNote error={remove.error} /> : null}
			{held.length ? (
				<ul className="grid gap-1 text-sm text-slate-700" aria-label={`What ${role.name} may do`}>
					{byArea(held).map((group) => (
						<li key={group.area}>
							<span className="font-medium text-slate-900">{group.area}:</span> {group.capabilities.map((c) => c.description.replace(/\.$/, "")).join("; ")}.
						</li>
					))}
				</ul>
			) : (
				<p className="text-sm text-slate-600">No permissions: people with this role can't do anything in Huf.</p>
			)}
		</li>
	);
}
