// "Call a web address": method, address, headers and body (engine/flow/calls.py http_request). The
// body is kept as a record or list when it reads as one, else as the text typed. A POST or PATCH
// may say its receiver honours the Idempotency-Key Huf sends (`idempotent`, engine/effects.py), so
// Huf sends it again after an interruption instead of asking a person.
import { useId } from "react";
import { Checkbox, Field, Select } from "../../../../components/ui/field";
import { Note, type KindProps } from "./kit";
import { PairsEditor } from "./PairsEditor";
import { TextSetting } from "./TextSetting";

const METHODS = [
	{ value: "GET", label: "GET (read)" },
	{ value: "POST", label: "POST (send)" },
	{ value: "PUT", label: "PUT (replace)" },
	{ value: "PATCH", label: "PATCH (change)" },
	{ value: "DELETE", label: "DELETE (remove)" },
	{ value: "HEAD", label: "HEAD (check only)" },
];

/** Methods that change things and so carry Huf's Idempotency-Key (the others are safe to repeat). */
const KEYED = ["POST", "PATCH"];

const HEADER_WORDS = { legend: "Headers", key: "Header name", value: "Header value", keyExample: "e.g. Authorization", valueExample: "e.g. Bearer {{ trigger.token }}", add: "Add a header" };

export function HttpFields({ config, variables, errorOf, set }: KindProps) {
	const method = String(config.method ?? "GET").toUpperCase();
	const hintId = useId();
	return (
		<>
			<Field label="Method" error={errorOf("method")}>
				{(props) => (
					<Select value={method} onChange={(e) => set({ method: e.target.value, ...(KEYED.includes(e.target.value) ? {} : { idempotent: undefined }) })} {...props}>
						{METHODS.some((m) => m.value === method) ? null : <option value={method}>{method}</option>}
						{METHODS.map((m) => (
							<option key={m.value} value={m.value}>
								{m.label}
							</option>
						))}
					</Select>
				)}
			</Field>
			<TextSetting label="Web address" error={errorOf("url")} placeholder="https://api.example.com/leads" value={config.url} onChange={(url) => set({ url })} insert={{ variables, form: "placeholder" }} />
			<PairsEditor words={HEADER_WORDS} value={config.headers} error={errorOf("headers")} hint="Header values are treated as secrets: never sent on to another site." onChange={(headers) => set({ headers })} />
			{(method === "GET" || method === "HEAD") && config.body === undefined ? null : (
				<TextSetting
					label="Body"
					hint={'What to send. Written like {"email": "{{ trigger.email }}"}, it goes as structured data (JSON); anything else goes as text.'}
					error={errorOf("body")}
					kind="value"
					multiline
					placeholder='e.g. {"email": "{{ trigger.email }}"}'
					value={config.body}
					onChange={(body) => set({ body })}
					insert={{ variables, form: "placeholder" }}
				/>
			)}
			{KEYED.includes(method) ? (
				<div className="grid gap-1">
					<Checkbox
						label="The receiving service ignores repeats with the same Idempotency-Key"
						checked={config.idempotent === true}
						onChange={(e) => set({ idempotent: e.target.checked })}
						aria-describedby={hintId}
					/>
					<Note
						id={hintId}
						hint="Huf sends an Idempotency-Key with every POST and PATCH. Tick this when the service honours it, so Huf can send the request again if it is interrupted; otherwise Huf asks you first."
					/>
				</div>
			) : null}
		</>
	);
}
