import { useId, useState } from "react";
import { useQuery } from "@tanstack/react-query";
import { Button } from "../../components/ui/button";
import { Chips } from "../../components/ui/chips";
import { Input } from "../../components/ui/field";
import { call } from "../../lib/api";

type ListEditorProps = { label: string; hint?: string; doctype: "User" | "Role"; values: string[]; onChange: (values: string[]) => void };

/** A list of people or roles: type to get suggestions, press Enter or Add, remove with the cross. */
export function ListEditor({ label, hint, doctype, values, onChange }: ListEditorProps) {
	const id = useId();
	const [text, setText] = useState("");
	const suggestions = useQuery({
		queryKey: ["search", doctype, text],
		queryFn: () => call<{ value: string; description?: string }[]>("frappe.desk.search.search_link", { doctype, txt: text, page_length: 8 }),
		enabled: text.trim().length > 0,
		staleTime: 60_000,
	});
	const add = () => {
		const value = text.trim();
		if (value && !values.includes(value)) onChange([...values, value]);
		setText("");
	};
	return (
		<div className="grid gap-1.5">
			<label htmlFor={id} className="text-sm font-medium text-slate-800">
				{label}
			</label>
			<div className="flex gap-2">
				<Input
					id={id}
					list={`${id}-options`}
					value={text}
					onChange={(e) => setText(e.target.value)}
					onKeyDown={(e) => {
						if (e.key === "Enter") {
							e.preventDefault();
							add();
						}
					}}
				/>
				<datalist id={`${id}-options`}>
					{suggestions.data?.map((s) => (
						<option key={s.value} value={s.value}>
							{s.description}
						</option>
					))}
				</datalist>
				<Button variant="outline" onClick={add} disabled={!text.trim()}>
					Add
				</Button>
			</div>
			{hint ? <p className="text-xs text-slate-500">{hint}</p> : null}
			{values.length ? <Chips label={label} values={values} onRemove={(value) => onChange(values.filter((v) => v !== value))} /> : null}
		</div>
	);
}
