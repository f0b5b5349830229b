import { AlertCircle, ArrowRight } from "lucide-react";
import { outline, type Definition, type Problems } from "./rules";

/** A flow's steps as a list in the order a run meets them, each with where it leads and when, and
 * the problems the server found in it (when a save failed). */
export function Outline({ definition, problems, title = "Steps" }: { definition: Definition; problems?: Problems | undefined; title?: string }) {
	const steps = outline(definition);
	return (
		<section aria-label={title} className="grid gap-2">
			<h2 className="text-base font-semibold">{title}</h2>
			{problems?.general.length ? (
				<ul role="alert" className="grid gap-1 rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-800">
					{problems.general.map((line) => <li key={line}>{line}</li>)}
				</ul>
			) : null}
			{steps.length ? (
				<ol className="grid gap-2">
					{steps.map((step, index) => {
						const found = problems?.byNode[step.id] ?? [];
						return (
							<li key={step.id} data-testid="flow-step" className={`grid gap-1 rounded-md border bg-white p-3 ${found.length ? "border-red-300" : "border-slate-200"}`}>
								<div className="flex flex-wrap items-baseline gap-2">
									<span className="text-xs tabular-nums text-slate-500">{index + 1}</span>
									<span className="font-medium">{step.label}</span>
									<span className="text-sm text-slate-600">{step.kind}</span>
								</div>
								{step.next.length ? (
									<ul className="grid gap-0.5 pl-5 text-sm text-slate-700">
										{step.next.map((next) => (
											<li key={next.id} className="flex items-center gap-1">
												<ArrowRight className="h-3 w-3 text-slate-400" aria-hidden />
												<span>
													Then <strong className="font-medium">{next.targetLabel}</strong> <span className="text-slate-500">({next.when})</span>
												</span>
											</li>
										))}
									</ul>
								) : (
									<p className="pl-5 text-sm text-slate-500">The run ends here.</p>
								)}
								{found.map((problem) => (
									<p key={problem} className="flex items-start gap-1 pl-5 text-sm text-red-700">
										<AlertCircle className="mt-0.5 h-4 w-4 shrink-0" aria-hidden />
										{problem}
									</p>
								))}
							</li>
						);
					})}
				</ol>
			) : (
				<p className="text-sm text-slate-600">This flow has no steps yet.</p>
			)}
		</section>
	);
}
