// How a test run is marked wherever it is listed or shown.
/** A test run, said in words (not only a colour): started from the builder with the steps on screen. */
export function TestMark() {
	return (
		<span data-testid="test-run-mark" title="Started from the builder with the steps as they were on screen, saved or not" className="rounded-full border border-violet-300 bg-violet-50 px-2 py-0.5 text-xs font-medium text-violet-800">
			Test run
		</span>
	);
}
