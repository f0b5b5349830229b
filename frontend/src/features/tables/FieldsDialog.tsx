// Making a table, or changing its columns. A change that would lose data comes back from the server
// as a list of losses; they are shown per column with how many rows and a few of the values, and the
// change is only made when the person confirms.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { ArrowDown, ArrowUp, Plus, Trash2 } from "lucide-react";
import { useState, type FormEvent } from "react";
import { useNavigate } from "react-router";
import { Button } from "../../components/ui/button";
import { Dialog } from "../../components/ui/dialog";
import { Checkbox, Field, Input, Select, Textarea } from "../../components/ui/field";
import { ErrorNote } from "../../components/ui/status";
import { createTable, fieldnameOf, FIELD_TYPES, TYPE_LABELS, updateTable, type DataTable, type FieldDraft, type FieldType, type Loss } from "./api";

type Props = { table?: DataTable; onClose: () => void };

const blank = (): FieldDraft => ({ label: "", fieldtype: "Data", options: "", reqd: 0 });

export function FieldsDialog({ table, onClose }: Props) {
	const queryClient = useQueryClient();
	const navigate = useNavigate();
	const [name, setName] = useState("");
	const [description, setDescription] = useState(table?.description ?? "");
	const [fields, setFields] = useState<FieldDraft[]>(table ? table.fields.map((f) => ({ ...f })) : [blank()]);
	const [naming, setNaming] = useState<"Autoincrement" | "Field">(table?.autoname_method ?? "Autoincrement");
	const [ownerRole, setOwnerRole] = useState(table?.owner_role ?? "Huf Manager");
	const [readerRole, setReaderRole] = useState(table?.reader_role ?? "Huf User");
	// the title column by position, so a column not yet saved (no fieldname yet) can be chosen
	const [title, setTitle] = useState<number>(table ? table.fields.findIndex((f) => f.fieldname === table.title_field_name) : -1);
	const [losses, setLosses] = useState<Loss[] | null>(null);
	const [problem, setProblem] = useState<string | null>(null);

	const titleName = title >= 0 && fields[title] ? fieldnameOf(fields[title]) : null;
	const save = useMutation({
		mutationFn: async (confirm: boolean) => {
			const sent = fields.map((f) => ({ ...f, label: f.label.trim() }));
			const roles = { owner_role: ownerRole.trim(), reader_role: readerRole.trim() };
			if (!table) {
				const made = await createTable({ table_name: name.trim(), fields: sent, description, autoname_method: naming, title_field_name: titleName, ...roles });
				return { made: made.name };
			}
			const answer = await updateTable(table.name, { fields: sent, description, title_field_name: titleName, ...roles }, confirm);
			return "needs_confirmation" in answer ? { losses: answer.losses } : { changed: true };
		},
		onSuccess: async (result) => {
			if ("losses" in result && result.losses) {
				setLosses(result.losses);
				return;
			}
			await queryClient.invalidateQueries({ queryKey: ["data-tables"] });
			if (table) {
				await queryClient.invalidateQueries({ queryKey: ["data-table", table.name] });
				await queryClient.invalidateQueries({ queryKey: ["data-table-rows", table.name] });
				onClose();
			} else if ("made" in result && result.made) {
				onClose();
				navigate(`/tables/${encodeURIComponent(result.made)}`);
			}
		},
	});

	const change = (index: number, patch: Partial<FieldDraft>) => {
		setLosses(null);
		setFields((all) => all.map((f, i) => (i === index ? { ...f, ...patch } : f)));
	};
	const move = (index: number, by: number) => {
		setLosses(null);
		setFields((all) => {
			const next = [...all];
			const [moved] = next.splice(index, 1);
			next.splice(index + by, 0, moved as FieldDraft);
			return next;
		});
		if (title === index) setTitle(index + by);
		else if (title === index + by) setTitle(index);
	};
	const remove = (index: number) => {
		setLosses(null);
		setFields((all) => all.filter((_, i) => i !== index));
		if (title === index) setTitle(-1);
		else if (title > index) setTitle(title - 1);
	};

	const submit = (event: FormEvent) => {
		event.preventDefault();
		setProblem(null);
		if (!table && !name.trim()) return setProblem("Give the table a name.");
		if (!fields.length) return setProblem("A table needs at least one column.");
		const unnamed = fields.findIndex((f) => !f.label.trim());
		if (unnamed >= 0) return setProblem(`Column ${unnamed + 1} needs a name.`);
		const noChoices = fields.find((f) => (f.fieldtype === "Select" || f.fieldtype === "Link") && !f.options.trim());
		if (noChoices) return setProblem(noChoices.fieldtype === "Select" ? `The column ${noChoices.label} needs its choices, one per line.` : `The column ${noChoices.label} needs the kind of record it links to.`);
		if (naming === "Field" && !titleName) return setProblem("Choose the title column: rows are named by it.");
		save.mutate(false);
	};

	const namedByField = table?.autoname_method === "Field";
	return (
		<Dialog open onOpenChange={(open) => !open && onClose()} title={table ? `Change the columns of ${table.table_name}` : "New table"} description={table ? "Rename, add, remove or retype columns. A column keeps its values when you rename it." : "A table holds rows of data your agents and people can read and change."}>
			<form className="grid gap-4" aria-label={table ? "Table columns" : "New table"} onSubmit={submit} noValidate>
				{!table ? (
					<Field label="Table name" hint="Letters, digits, spaces, - and _; it starts with a letter.">
						{(props) => <Input {...props} value={name} onChange={(e) => setName(e.target.value)} autoFocus maxLength={58} />}
					</Field>
				) : null}
				<Field label="Description">{(props) => <Textarea {...props} rows={2} value={description} onChange={(e) => setDescription(e.target.value)} />}</Field>
				<div className="grid gap-3 sm:grid-cols-2">
					<Field label="Who may add and change rows" hint="A role on this site, e.g. Huf Manager.">
						{(props) => <Input {...props} value={ownerRole} onChange={(e) => setOwnerRole(e.target.value)} />}
					</Field>
					<Field label="Who may read rows" hint="A role on this site, e.g. Huf User.">
						{(props) => <Input {...props} value={readerRole} onChange={(e) => setReaderRole(e.target.value)} />}
					</Field>
				</div>
				<fieldset className="grid gap-3">
					<legend className="mb-2 text-sm font-medium text-slate-800">Columns</legend>
					<ol className="grid gap-3">
						{fields.map((field, index) => {
							const label = field.label.trim() || `Column ${index + 1}`;
							return (
								<li key={index} className="grid gap-2 rounded-md border border-slate-200 p-3" aria-label={label}>
									<div className="grid gap-2 sm:grid-cols-2">
										<Field label={`Name of column ${index + 1}`}>{(props) => <Input {...props} value={field.label} onChange={(e) => change(index, { label: e.target.value })} />}</Field>
										<Field label={`Type of column ${index + 1}`}>
											{(props) => (
												<Select {...props} value={field.fieldtype} onChange={(e) => change(index, { fieldtype: e.target.value as FieldType })}>
													{FIELD_TYPES.map((type) => (
														<option key={type} value={type}>
															{TYPE_LABELS[type]}
														</option>
													))}
												</Select>
											)}
										</Field>
									</div>
									{field.fieldtype === "Select" ? (
										<Field label={`Choices of ${label}`} hint="One per line.">{(props) => <Textarea {...props} rows={3} value={field.options} onChange={(e) => change(index, { options: e.target.value })} />}</Field>
									) : field.fieldtype === "Link" ? (
										<Field label={`What ${label} links to`} hint="The kind of record, e.g. User or Customer.">{(props) => <Input {...props} value={field.options} onChange={(e) => change(index, { options: e.target.value })} />}</Field>
									) : null}
									<div className="flex flex-wrap items-center gap-3">
										<Checkbox label="Required" checked={Boolean(field.reqd)} onChange={(e) => change(index, { reqd: e.target.checked ? 1 : 0 })} />
										<div className="ml-auto flex gap-1">
											<Button variant="ghost" size="icon" aria-label={`Move ${label} up`} disabled={index === 0} onClick={() => move(index, -1)}>
												<ArrowUp className="h-4 w-4" aria-hidden />
											</Button>
											<Button variant="ghost" size="icon" aria-label={`Move ${label} down`} disabled={index === fields.length - 1} onClick={() => move(index, 1)}>
												<ArrowDown className="h-4 w-4" aria-hidden />
											</Button>
											<Button variant="ghost" size="icon" aria-label={`Remove ${label}`} disabled={fields.length === 1 || (namedByField && field.fieldname === table?.title_field_name)} onClick={() => remove(index)}>
												<Trash2 className="h-4 w-4" aria-hidden />
											</Button>
										</div>
									</div>
								</li>
							);
						})}
					</ol>
					<Button variant="outline" className="justify-self-start" onClick={() => setFields((all) => [...all, blank()])} disabled={fields.length >= 200}>
						<Plus className="h-4 w-4" aria-hidden /> Add a column
					</Button>
				</fieldset>
				<Field label="Title column" hint="The column that names a row wherever it is shown.">
					{(props) => (
						<Select {...props} value={String(title)} disabled={namedByField} onChange={(e) => setTitle(Number(e.target.value))}>
							<option value="-1">None</option>
							{fields.map((field, index) => (
								<option key={index} value={index}>
									{field.label.trim() || `Column ${index + 1}`}
								</option>
							))}
						</Select>
					)}
				</Field>
				{!table ? (
					<fieldset className="grid gap-1 text-sm">
						<legend className="mb-1 font-medium text-slate-800">How rows are named</legend>
						<label className="flex items-center gap-2">
							<input type="radio" name="naming" checked={naming === "Autoincrement"} onChange={() => setNaming("Autoincrement")} /> By number (1, 2, 3…)
						</label>
						<label className="flex items-center gap-2">
							<input type="radio" name="naming" checked={naming === "Field"} onChange={() => setNaming("Field")} /> By the title column (each value once)
						</label>
					</fieldset>
				) : null}
				{problem ? <ErrorNote error={problem} /> : null}
				{save.error ? <ErrorNote error={save.error} /> : null}
				{losses ? (
					<section role="alert" aria-label="Data that would be lost" className="grid gap-2 rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-900">
						<p className="font-semibold">This change would lose data:</p>
						<ul className="grid gap-1">
							{losses.map((loss) => (
								<li key={loss.field}>
									<span className="font-medium">{fields.find((f) => f.fieldname === loss.field)?.label ?? table?.fields.find((f) => f.fieldname === loss.field)?.label ?? loss.field}</span>: {loss.what} in {loss.rows === 1 ? "1 row" : `${loss.rows} rows`}
									{loss.examples.length ? <> (for example {loss.examples.map((e) => `“${String(e)}”`).join(", ")})</> : null}.
								</li>
							))}
						</ul>
						<div className="flex flex-wrap gap-2">
							<Button variant="danger" disabled={save.isPending} onClick={() => save.mutate(true)}>
								Change anyway and lose this data
							</Button>
							<Button variant="outline" onClick={() => setLosses(null)}>
								Keep editing
							</Button>
						</div>
					</section>
				) : null}
				<div className="flex justify-end gap-2">
					<Button variant="outline" onClick={onClose}>
						Cancel
					</Button>
					<Button type="submit" disabled={save.isPending || Boolean(losses)}>
						{save.isPending ? "Saving…" : table ? "Save columns" : "Create table"}
					</Button>
				</div>
			</form>
		</Dialog>
	);
}
