import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Button } from "../../components/ui/button";
import { Dialog } from "../../components/ui/dialog";
import { Field, Form, Input, Textarea } from "../../components/ui/field";
import { ErrorNote } from "../../components/ui/status";
import type { Capability } from "../../lib/boot";
import { byArea, saveRole, type CapabilityInfo, type HufRole } from "./api";

type Props = { role: HufRole | null; capabilities: CapabilityInfo[]; onClose: () => void; onSaved: (name: string) => void };

/** Make a custom role, or change one: its name (fixed once made), what it is for, and a tick per permission. */
export function RoleDialog({ role, capabilities, onClose, onSaved }: Props) {
	const queryClient = useQueryClient();
	const [name, setName] = useState(role?.name ?? "");
	const [about, setAbout] = useState(role?.role_description ?? "");
	const [ticked, setTicked] = useState<Set<Capability>>(new Set(role?.capabilities ?? []));
	const [problem, setProblem] = useState<{ name?: string; ticks?: string }>({});
	const save = useMutation({
		// Sent in the order the permissions are listed, whatever order they were ticked in.
		mutationFn: () => saveRole({ role_name: name.trim(), role_description: about.trim(), capabilities: capabilities.map((c) => c.name).filter((c) => ticked.has(c)) }, role?.name),
		onSuccess: async (saved) => {
			await Promise.all([queryClient.invalidateQueries({ queryKey: ["huf-roles"] }), queryClient.invalidateQueries({ queryKey: ["me"] })]);
			onSaved(saved.name);
		},
	});
	const toggle = (capability: Capability, on: boolean) => {
		setTicked((current) => {
			const next = new Set(current);
			if (on) next.add(capability);
			else next.delete(capability);
			return next;
		});
		setProblem(({ ticks: _, ...rest }) => rest);
	};
	const submit = () => {
		const found = { ...(name.trim() ? {} : { name: "Give the role a name." }), ...(ticked.size ? {} : { ticks: "Tick at least one permission." }) };
		setProblem(found);
		if (!found.name && !found.ticks) save.mutate();
	};
	return (
		<Dialog
			open
			onOpenChange={(open) => (open ? undefined : onClose())}
			title={role ? `Change ${role.name}` : "New role"}
			description="Tick what people with this role may do. Whoever has the role gets exactly these permissions."
		>
			<Form onSubmit={submit}>
				<Field label="Name" error={problem.name} hint={role ? "A role keeps its name. Make a new role for a new name." : "For example: Support agent builder."}>
					{(props) => <Input value={name} disabled={Boolean(role)} onChange={(e) => setName(e.target.value)} {...props} />}
				</Field>
				<Field label="What it is for">
					{(props) => <Textarea rows={2} value={about} onChange={(e) => setAbout(e.target.value)} {...props} />}
				</Field>
				<fieldset className="grid gap-3" aria-describedby={problem.ticks ? "role-ticks-error" : undefined}>
					<legend className="text-sm font-medium text-slate-800">Permissions</legend>
					{problem.ticks ? (
						<p id="role-ticks-error" className="text-sm text-red-600">
							{problem.ticks}
						</p>
					) : null}
					{byArea(capabilities).map((group) => (
						<fieldset key={group.area} className="grid gap-1.5">
							<legend className="text-xs font-semibold uppercase tracking-wide text-slate-500">{group.area}</legend>
							{group.capabilities.map((capability) => (
								<label key={capability.name} className="flex items-start gap-2 text-sm text-slate-800">
									<input
										type="checkbox"
										className="mt-0.5 h-4 w-4 shrink-0 rounded border-slate-300 accent-blue-600"
										checked={ticked.has(capability.name)}
										onChange={(e) => toggle(capability.name, e.target.checked)}
									/>
									<span>
										{capability.description} <span className="font-mono text-xs text-slate-500">({capability.name})</span>
									</span>
								</label>
							))}
						</fieldset>
					))}
				</fieldset>
				{save.error ? <ErrorNote error={save.error} /> : null}
				<div className="flex justify-end gap-2">
					<Button variant="outline" onClick={onClose}>
						Cancel
					</Button>
					<Button type="submit" disabled={save.isPending}>
						{save.isPending ? "Saving…" : role ? "Save role" : "Make role"}
					</Button>
				</div>
			</Form>
		</Dialog>
	);
}
