// The chat page's first-screen guide (huf/ai/getting_started.py): how far the site is on the way to
// a first chat, as the signed-in person sees it, and Huf's example added from there.
import { call } from "../../lib/api";

export type StepName = "provider" | "model" | "agent" | "chat";
/** One step; `name` is what is there (the first provider, model or agent the person may see). */
export type Step = { step: StepName; done: boolean; name: string | null };
/** Huf's example (huf/examples): added here or not, and its agent once it has a model. */
export type ExampleState = { added: boolean; agent: string | null; waiting_for_model: boolean };
export type Checklist = {
	steps: Step[];
	done: boolean;
	/** May add providers (provider.write): gets the steps and the example. */
	can_set_up: boolean;
	example: ExampleState | null;
	/** Who can set an agent up, for a person who has none to chat with and may not do it. */
	helpers: string[];
};

export const checklistKey = ["getting-started"] as const;

export const startApi = {
	checklist: () => call<Checklist>("huf.ai.getting_started.get_checklist"),
	addExample: () => call<ExampleState & { problems: string[] }>("huf.ai.getting_started.add_example", {}, true),
};

/** The first step not done yet: the one the guide points at. */
export function nextStep(checklist: Checklist): Step | undefined {
	return checklist.steps.find((step) => !step.done);
}
