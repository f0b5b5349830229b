// One assistant turn at a time: its steps as they stream, then its answer or the error that stopped it.
import { useState } from "react";
import { ask, type Answer, type Method, type Step } from "./api";

export function useTurn<R>(method: Method) {
	const [steps, setSteps] = useState<Step[]>([]);
	const [answer, setAnswer] = useState<Answer<R> | null>(null);
	const [error, setError] = useState<unknown>(null);
	const [busy, setBusy] = useState(false);
	const run = async (args: Record<string, unknown>): Promise<Answer<R> | null> => {
		setSteps([]);
		setAnswer(null);
		setError(null);
		setBusy(true);
		try {
			const found = await ask<R>(method, args, (step) => setSteps((seen) => [...seen, step]));
			setAnswer(found);
			return found;
		} catch (failure) {
			setError(failure);
			return null;
		} finally {
			setBusy(false);
		}
	};
	const clear = () => {
		setSteps([]);
		setAnswer(null);
		setError(null);
	};
	return { steps, answer, error, busy, run, clear };
}
