// The one way a form works: a draft of what is edited, its rules (rules.ts) checked on Save, each
// mistake next to its field and cleared as soon as that field changes, then the save, with a refusal
// of the server shown next to its field when it names one. Used by the agent, tool, tool server,
// prompt and knowledge source forms; every form is drawn in components/ui/field.tsx's Form.
import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { ApiError } from "./api";
import { hasErrors, type FieldErrors } from "./rules";

type DraftFormOptions<T, R> = {
	initial: T;
	/** The form's rules: what needs attention before saving. */
	validate: (draft: T) => FieldErrors<T>;
	save: (draft: T) => Promise<R>;
	onSaved: (result: R) => unknown;
	/** Names what is saved, in "Some fields need attention before the … can be saved." */
	what?: string;
	/** The field a refusal of the server belongs next to (with the server's words, or these). */
	fieldOf?: (error: ApiError) => keyof T | readonly [keyof T, string] | null;
};

export function useDraftForm<T extends object, R>({ initial, validate, save, onSaved, what = "form", fieldOf }: DraftFormOptions<T, R>) {
	const [draft, setDraft] = useState(initial);
	const [errors, setErrors] = useState<FieldErrors<T>>({});
	const [formError, setFormError] = useState<string | null>(null);
	/** Changes one field, and forgets what was wrong with it. */
	const set = <K extends keyof T>(key: K, value: T[K]) => {
		setDraft((current) => ({ ...current, [key]: value }));
		setErrors(({ [key]: _, ...rest }) => rest as FieldErrors<T>);
	};
	const mutation = useMutation({
		mutationFn: () => save(draft),
		onSuccess: async (result) => {
			await onSaved(result);
			setFormError(null);
		},
		onError: (error) => {
			const field = error instanceof ApiError && fieldOf ? fieldOf(error) : null;
			if (field === null) setFormError(error.message);
			else if (Array.isArray(field)) setErrors({ [field[0]]: field[1] } as FieldErrors<T>);
			else setErrors({ [field as keyof T]: error.message } as FieldErrors<T>);
		},
	});
	/** Checks the rules, then saves; or says what needs attention. */
	const submit = () => {
		const found = validate(draft);
		setErrors(found);
		if (hasErrors(found)) setFormError(`Some fields need attention before the ${what} can be saved.`);
		else mutation.mutate();
	};
	return { draft, setDraft, set, errors, setErrors, formError, dirty: JSON.stringify(draft) !== JSON.stringify(initial), save: mutation, submit };
}
