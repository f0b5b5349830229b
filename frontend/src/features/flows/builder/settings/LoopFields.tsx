// "Repeat for each": the list to go through, the names each item and its position are kept under
// while the repeated steps run, and the most items allowed (engine/flow/control.py loop).
import { Field, Input } from "../../../../components/ui/field";
import { NumberSetting, type KindProps } from "./kit";
import { TextSetting } from "./TextSetting";

const MAX_ITERATIONS = 10_000; // control.MAX_ITERATIONS

export function LoopFields({ config, variables, errorOf, set }: KindProps) {
	const name = (key: "item_var" | "index_var", label: string, fallback: string, hint: string) => (
		<Field label={label} error={errorOf(key)} hint={hint}>
			{(props) => <Input value={typeof config[key] === "string" ? (config[key] as string) : ""} placeholder={fallback} onChange={(e) => set({ [key]: e.target.value })} {...props} />}
		</Field>
	);
	return (
		<>
			<TextSetting
				label="List to go through"
				hint="Where the list is in the flow's data, e.g. trigger.leads."
				error={errorOf("items")}
				placeholder="trigger.leads"
				value={config.items}
				onChange={(items) => set({ items })}
				insert={{ variables, form: "expression" }}
			/>
			{name("item_var", "Name for each item", "item", "The repeated steps read the current item under this name.")}
			{name("index_var", "Name for its position", "index", "Its position in the list, counting from 0.")}
			<NumberSetting
				label="At most"
				hint={`The most items the list may have, from 1 to ${MAX_ITERATIONS.toLocaleString("en")}. A longer list fails the step before anything is repeated.`}
				error={errorOf("max_iterations")}
				min={1}
				max={MAX_ITERATIONS}
				value={config.max_iterations}
				onChange={(max_iterations) => set({ max_iterations })}
			/>
		</>
	);
}
