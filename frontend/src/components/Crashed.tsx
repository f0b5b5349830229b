import { Button } from "./ui/button";

/** Shown instead of a blank page when a screen fails to draw. */
export function Crashed() {
	return (
		<main role="alert" className="mx-auto mt-16 grid max-w-md gap-3 p-6 text-center">
			<h1 className="text-lg font-semibold">Something went wrong on this page</h1>
			<p className="text-sm text-slate-600">Reload to try again. If it keeps happening, tell your administrator what you were doing.</p>
			<Button className="justify-self-center" onClick={() => window.location.reload()}>
				Reload
			</Button>
		</main>
	);
}
