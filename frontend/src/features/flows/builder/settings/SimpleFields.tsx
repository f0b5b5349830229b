// The kinds with one or two settings: "Let a model choose" (router.llm: instructions, model),
// "Check a condition" (condition: expression) and "Finish" (end: the run's result).
import { Field, Input } from "../../../../components/ui/field";
import type { KindProps } from "./kit";
import { TextSetting } from "./TextSetting";

export function RouterFields({ config, variables, errorOf, set }: KindProps) {
	return (
		<>
			<TextSetting
				label="Instructions"
				hint="How to choose. The model also sees the steps this one is connected to, by name, and picks one."
				error={errorOf("prompt")}
				multiline
				placeholder="e.g. Send urgent requests to the support team: {{ trigger.message }}"
				value={config.prompt}
				onChange={(prompt) => set({ prompt })}
				insert={{ variables, form: "placeholder" }}
			/>
			<Field label="Model (optional)" error={errorOf("model")} hint="The model or agent that chooses. Leave empty to use the one set for the whole flow.">
				{(props) => <Input value={typeof config.model === "string" ? config.model : ""} onChange={(e) => set({ model: e.target.value })} {...props} />}
			</Field>
		</>
	);
}

export function ConditionFields({ config, variables, errorOf, set }: KindProps) {
	return (
		<TextSetting
			label="Condition"
			hint={'Compare values from the flow, e.g. trigger.lead.score > 50 and trigger.lead.country == "DE". When it holds, the run goes the “Yes” way; otherwise the “No” way.'}
			error={errorOf("expression")}
			placeholder="trigger.lead.score > 50"
			value={config.expression}
			onChange={(expression) => set({ expression })}
			insert={{ variables, form: "expression" }}
		/>
	);
}

export function EndFields({ config, variables, errorOf, set }: KindProps) {
	return (
		<TextSetting
			label="Result (optional)"
			hint={'What the run gives back when it finishes here, e.g. {{ nodes.score }} or {"score": 80, "lead": "{{ trigger.lead }}"}.'}
			error={errorOf("output")}
			kind="value"
			multiline
			value={config.output}
			onChange={(output) => set({ output })}
			insert={{ variables, form: "placeholder" }}
		/>
	);
}
