import type { SelectHTMLAttributes } from "react";
import { Select } from "../../components/ui/field";
import { EFFECTS, type ToolEffect } from "./rules";

type EffectSelectProps = Omit<SelectHTMLAttributes<HTMLSelectElement>, "value" | "onChange"> & { value: ToolEffect; onChange: (effect: ToolEffect) => void };

/** "If Huf is interrupted during this tool", for a tool or a tool server's tool. */
export function EffectSelect({ value, onChange, ...props }: EffectSelectProps) {
	return (
		<Select value={value} onChange={(e) => onChange(e.target.value as ToolEffect)} {...props}>
			{EFFECTS.map((choice) => (
				<option key={choice.value} value={choice.value}>{choice.label}</option>
			))}
		</Select>
	);
}
