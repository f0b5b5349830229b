import { StatusBadge } from "../../components/ui/status";

export type Plan = {
	status: string;
	current_step: number;
	steps: { step: number; instruction: string; status: string; output: string }[];
};

// A planned run's plan: each step in order, done or still to do, with what it produced.
export function PlanSection({ plan }: { plan: Plan }) {
	const done = plan.steps.filter((step) => step.status === "Done").length;
	return (
		<section className="grid grid-cols-1 gap-2" aria-labelledby="run-plan-title" data-testid="run-plan">
			<h2 id="run-plan-title" className="flex flex-wrap items-center gap-2 text-base font-semibold">
				Plan <StatusBadge status={plan.status} />
				<span className="text-sm font-normal text-slate-600">
					{done} of {plan.steps.length} steps done
				</span>
			</h2>
			<ol className="grid grid-cols-1 gap-2">
				{plan.steps.map((step) => (
					<li key={step.step} className="grid grid-cols-1 gap-1 rounded-md border border-slate-200 bg-white p-3 text-sm" data-testid="plan-step">
						<div className="flex flex-wrap items-center gap-2">
							<span className="font-medium">
								{step.step}. {step.instruction}
							</span>
							<span className={step.status === "Done" ? "text-emerald-700" : "text-slate-500"}>{step.status === "Done" ? "Done" : step.step === plan.current_step ? "Next" : "To do"}</span>
						</div>
						{step.output ? <p className="whitespace-pre-wrap text-slate-700">{step.output}</p> : null}
					</li>
				))}
			</ol>
		</section>
	);
}
