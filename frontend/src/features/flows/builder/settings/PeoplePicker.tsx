// Choosing people (or roles) from the site: the chosen ones as chips with a remove button, a search
// box, and the matches to add. Only names the site knows can be added, so nobody is left out of an
// approval by a typo. Guest (someone who has not signed in, and its role) is never offered: it
// cannot decide.
import { Plus } from "lucide-react";
import { useState } from "react";
import { Chips } from "../../../../components/ui/chips";
import { Input } from "../../../../components/ui/field";
import { useSuggestions } from "../../../tools/api";
import { Group } from "./kit";

type PeoplePickerProps = { label: string; doctype: "User" | "Role"; values: string[]; error?: string | undefined; onChange: (values: string[]) => void };

const NOUN = { User: "person", Role: "role" };

export function PeoplePicker({ label, doctype, values, error, onChange }: PeoplePickerProps) {
	const [text, setText] = useState("");
	const found = useSuggestions(doctype, text.trim());
	const matches = (found.data ?? []).filter((match) => match.value !== "Guest" && !values.includes(match.value));
	return (
		<Group legend={label} error={error}>
			{values.length ? <Chips label={`Chosen: ${label}`} values={values} onRemove={(value) => onChange(values.filter((v) => v !== value))} /> : <p className="text-sm text-slate-500">No {NOUN[doctype]} chosen yet.</p>}
			<Input type="search" aria-label={`Find a ${NOUN[doctype]}`} placeholder={`Find a ${NOUN[doctype]}`} value={text} onChange={(e) => setText(e.target.value)} />
			{found.isError ? <p className="text-sm text-red-600">{found.error.message}</p> : null}
			<ul className="grid max-h-48 gap-0.5 overflow-y-auto" aria-label={`Matching ${doctype === "User" ? "people" : "roles"}`}>
				{matches.map((match) => {
					const shown = match.description ? `${match.description} (${match.value})` : match.value;
					return (
						<li key={match.value}>
							<button
								type="button"
								className="flex w-full items-center gap-2 rounded-md px-2 py-1 text-left text-sm hover:bg-slate-50 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-blue-500"
								aria-label={`Add ${shown}`}
								onClick={() => onChange([...values, match.value])}
							>
								<Plus className="h-3.5 w-3.5 shrink-0 text-slate-500" aria-hidden />
								<span>{shown}</span>
							</button>
						</li>
					);
				})}
				{found.isSuccess && !matches.length ? <li className="px-2 py-1 text-sm text-slate-500">No matches.</li> : null}
			</ul>
		</Group>
	);
}
