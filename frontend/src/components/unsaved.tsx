import { useEffect, useRef, type ReactNode } from "react";
import { useBlocker } from "react-router";
import { Button } from "./ui/button";

/** While `dirty`, leaving the page (in the app, or closing the tab) asks first. Set
 * `justSaved.current = true` before navigating away after a save. `prompt` goes in the page. */
export function useUnsavedGuard(dirty: boolean): { justSaved: { current: boolean }; prompt: ReactNode } {
	const justSaved = useRef(false);
	const blocker = useBlocker(({ currentLocation, nextLocation }) => dirty && !justSaved.current && currentLocation.pathname !== nextLocation.pathname);
	useEffect(() => {
		if (!dirty) return;
		const warn = (event: BeforeUnloadEvent) => event.preventDefault();
		window.addEventListener("beforeunload", warn);
		return () => window.removeEventListener("beforeunload", warn);
	}, [dirty]);
	const prompt =
		blocker.state === "blocked" ? (
			<div role="alertdialog" aria-labelledby="leave-title" className="fixed inset-x-0 bottom-4 z-50 mx-auto flex max-w-md flex-wrap items-center gap-3 rounded-lg bg-slate-900 p-4 text-white shadow-xl">
				<p id="leave-title" className="flex-1 text-sm">You have unsaved changes. Leave and lose them?</p>
				<Button variant="outline" size="sm" onClick={() => blocker.reset()}>Stay</Button>
				<Button variant="danger" size="sm" onClick={() => blocker.proceed()}>Leave</Button>
			</div>
		) : null;
	return { justSaved, prompt };
}
