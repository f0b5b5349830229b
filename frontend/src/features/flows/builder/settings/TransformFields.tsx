// "Reshape data": new values for later steps, copied from the flow's data, worked out with an
// expression, or one text filled in from a template (engine/flow/simple.py transform).
import { Field, Input, Select } from "../../../../components/ui/field";
import type { KindProps } from "./kit";
import { PairsEditor } from "./PairsEditor";
import { TextSetting } from "./TextSetting";

const MODES = [
	{ value: "copy", label: "Copy values", hint: "Each new value is copied from a place in the flow's data, e.g. trigger.lead.email." },
	{ value: "map", label: "Work out values", hint: "Each new value is worked out from the flow's data, e.g. trigger.amount * 1.2 or trigger.lead.score > 50." },
	{ value: "template", label: "Fill in a text", hint: "One text, with values from the flow put in where {{ ... }} stands." },
];

const MAPPING_WORDS = { legend: "New values", key: "New name", value: "Comes from", keyExample: "e.g. email", valueExample: "e.g. trigger.lead.email", add: "Add a value" };

export function TransformFields({ config, variables, errorOf, set }: KindProps) {
	const mode = MODES.find((m) => m.value === config.mode);
	const names = variables.map((variable) => variable.name).join(", ");
	return (
		<>
			<Field label="How" error={errorOf("mode")} hint={mode?.hint}>
				{(props) => (
					<Select value={mode?.value ?? ""} onChange={(e) => set({ mode: e.target.value })} {...props}>
						{mode ? null : <option value="">Choose how</option>}
						{MODES.map((m) => (
							<option key={m.value} value={m.value}>
								{m.label}
							</option>
						))}
					</Select>
				)}
			</Field>
			{mode?.value === "template" ? (
				<>
					<TextSetting label="Text" error={errorOf("template")} multiline value={config.template} onChange={(template) => set({ template })} insert={{ variables, form: "placeholder" }} />
					<Field label="Keep it as" error={errorOf("key")} hint="The name later steps use to read the text.">
						{(props) => <Input value={typeof config.key === "string" ? config.key : ""} placeholder="text" onChange={(e) => set({ key: e.target.value })} {...props} />}
					</Field>
				</>
			) : mode ? (
				<PairsEditor words={MAPPING_WORDS} value={config.mappings} error={errorOf("mappings")} hint={`Values you can use here: ${names}.`} onChange={(mappings) => set({ mappings })} />
			) : null}
		</>
	);
}
