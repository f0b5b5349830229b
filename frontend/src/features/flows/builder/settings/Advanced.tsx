// "Advanced", for every kind of step (engine/flow/step.py): a second name for its result, trying
// again when it fails, and a result to use instead of failing. Open from the start when one of them
// is set or has a problem.
import { useState } from "react";
import { Field, Input } from "../../../../components/ui/field";
import { resultPath } from "../variables";
import { NumberSetting, type KindProps } from "./kit";
import { TextSetting } from "./TextSetting";

const KEYS = ["output_key", "retries", "backoff_seconds", "default"];

export function Advanced({ node, config, errorOf, set }: KindProps) {
	const [open, setOpen] = useState(() => KEYS.some((key) => config[key] !== undefined && config[key] !== ""));
	const troubled = KEYS.some((key) => errorOf(key));
	const retries = typeof config.retries === "number" ? config.retries : 0;
	return (
		<details open={open || troubled} onToggle={(e) => setOpen(e.currentTarget.open)}>
			<summary className="cursor-pointer text-sm font-semibold text-slate-900">Advanced</summary>
			<div className="mt-3 grid gap-4">
				<Field label="Also keep the result as" error={errorOf("output_key")} hint={`A short name later steps can use instead of ${resultPath(node.id)}.`}>
					{(props) => <Input value={typeof config.output_key === "string" ? config.output_key : ""} placeholder="e.g. score" onChange={(e) => set({ output_key: e.target.value })} {...props} />}
				</Field>
				<NumberSetting label="If it fails, try again" hint="How many more times to try before giving up. 0 tries once." error={errorOf("retries")} min={0} value={config.retries} onChange={(value) => set({ retries: value })} />
				{retries > 0 || config.backoff_seconds !== undefined ? (
					<NumberSetting
						label="Wait before trying again (seconds)"
						hint="Doubled after each try, up to an hour."
						error={errorOf("backoff_seconds")}
						min={0}
						value={config.backoff_seconds}
						onChange={(value) => set({ backoff_seconds: value })}
					/>
				) : null}
				<TextSetting
					label="If it still fails, use this result instead"
					hint="The run then goes on as if the step had worked. Leave empty to take the step’s “If it fails” connection, or stop the run."
					error={errorOf("default")}
					kind="value"
					multiline
					value={config.default}
					onChange={(value) => set({ default: value })}
				/>
			</div>
		</details>
	);
}
