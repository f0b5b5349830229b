// A part of a page whose code is fetched as soon as the page's own code runs, alongside the page's
// data, and shown the moment both are here. React's `lazy` would wait for the code only once the
// part is first drawn, and React then holds back what a loading note stood in for by up to 300 ms.
import { useEffect, useState, type ComponentType } from "react";
import { ErrorNote, Loading } from "../components/ui/status";

type Outcome<P> = { part: ComponentType<P> } | { error: unknown };

export function preloaded<P extends object>(load: () => Promise<ComponentType<P>>): ComponentType<P> {
	let outcome: Outcome<P> | null = null;
	const ready = load().then(
		(part) => (outcome = { part }),
		(error: unknown) => (outcome = { error: new Error(`This part of the page could not be loaded (${error instanceof Error ? error.message : String(error)}). Reload the page to try again.`) }),
	);
	return function Preloaded(props: P) {
		const [now, setNow] = useState(outcome);
		useEffect(() => {
			if (!now) void ready.then(() => setNow(outcome));
		}, [now]);
		const seen = now ?? outcome;
		if (!seen) return <Loading />;
		if ("error" in seen) return <ErrorNote error={seen.error} />;
		const Part = seen.part;
		return <Part {...props} />;
	};
}
