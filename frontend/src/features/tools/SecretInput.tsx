import { Input } from "../../components/ui/field";
import { isMasked } from "./rules";

type SecretInputProps = { value: string; saved: string; onChange: (value: string) => void; id?: string; "aria-label"?: string; "aria-invalid"?: boolean; "aria-describedby"?: string; disabled?: boolean };

/** A secret is write-only: once saved it is never shown again, only kept (left empty) or replaced.
 * `saved` is the masked value the server gave back; sending it unchanged keeps the stored secret. */
export function SecretInput({ value, saved, onChange, ...props }: SecretInputProps) {
	const kept = isMasked(saved);
	return (
		<Input
			type="password"
			autoComplete="new-password"
			value={isMasked(value) ? "" : value}
			placeholder={kept ? "Saved (hidden). Type to replace it." : ""}
			onChange={(e) => onChange(e.target.value === "" && kept ? saved : e.target.value)}
			{...props}
		/>
	);
}
