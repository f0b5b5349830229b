// A length of time typed in minutes, hours or days and kept in seconds; empty means no limit.
import { useState } from "react";
import { Input, Select } from "../../../../components/ui/field";
import { Group } from "./kit";

const UNITS = [
	{ seconds: 86_400, label: "days" },
	{ seconds: 3_600, label: "hours" },
	{ seconds: 60, label: "minutes" },
	{ seconds: 1, label: "seconds" },
];

/** The largest unit the saved number of seconds is a whole count of. */
const unitFor = (seconds: unknown) => (typeof seconds === "number" && seconds > 0 ? (UNITS.find((unit) => seconds % unit.seconds === 0) ?? UNITS[3]) : UNITS[1])!.seconds;

type DurationProps = { label: string; hint: string; error?: string | undefined; value: unknown; onChange: (seconds: number | undefined) => void };

export function Duration({ label, hint, error, value, onChange }: DurationProps) {
	const [unit, setUnit] = useState(() => unitFor(value));
	const amount = typeof value === "number" ? value / unit : "";
	return (
		<Group legend={label} error={error} hint={hint}>
			<div className="flex gap-2">
				<Input type="number" min={0} step="any" aria-label={`${label}: how many`} aria-invalid={Boolean(error)} value={amount} onChange={(e) => onChange(e.target.value === "" ? undefined : Number(e.target.value) * unit)} />
				<Select
					aria-label={`${label}: unit`}
					className="w-32"
					value={unit}
					onChange={(e) => {
						const next = Number(e.target.value);
						setUnit(next);
						if (typeof value === "number") onChange((value / unit) * next);
					}}
				>
					{UNITS.map((option) => (
						<option key={option.seconds} value={option.seconds}>
							{option.label}
						</option>
					))}
				</Select>
			</div>
		</Group>
	);
}
