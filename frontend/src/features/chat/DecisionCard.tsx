import { useState, type ReactNode } from "react";

/** One choice a person sends about a run that waits for them: busy while it goes, the chosen option
 * once the server took it, the server's words when it refused (the choices stay). */
export function useChoice<T extends string>(send: (choice: T) => Promise<unknown>) {
	const [chosen, setChosen] = useState<T | null>(null);
	const [busy, setBusy] = useState(false);
	const [error, setError] = useState<string | null>(null);
	const choose = async (choice: T) => {
		setBusy(true);
		try {
			await send(choice);
			setChosen(choice);
			setError(null);
		} catch (e) {
			setError((e as Error).message);
		} finally {
			setBusy(false);
		}
	};
	return { chosen, busy, error, choose };
}

/** The card a run that waits for a person shows in its answer, with what went wrong when they chose. */
export function DecisionCard({ label, testId, error, children }: { label: string; testId: string; error: string | null; children: ReactNode }) {
	return (
		<section className="grid min-w-0 grid-cols-1 gap-2 rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm" aria-label={label} data-testid={testId}>
			{children}
			{error ? (
				<p role="alert" className="text-xs text-red-700">
					{error}
				</p>
			) : null}
		</section>
	);
}
