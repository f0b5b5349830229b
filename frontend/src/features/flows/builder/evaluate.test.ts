import { describe, expect, it } from "vitest";
import { evaluate, fill, shown } from "./evaluate";

const data = { trigger: { lead: "ACME", amount: 120 }, nodes: { score: { status: "hot", points: [3, 4] }, "get-lead": { ok: true } }, letter: "Dear ACME" };

describe("evaluate (the last test run's values, as the server works them out)", () => {
	it("reads paths, compares and does arithmetic like the server's evaluator", () => {
		expect(evaluate("nodes.score.status == 'hot'", data)).toEqual({ ok: true, value: true });
		expect(evaluate("trigger.amount * 2 + 1", data)).toEqual({ ok: true, value: 241 });
		expect(evaluate('nodes["get-lead"].ok and trigger.lead', data)).toEqual({ ok: true, value: "ACME" });
		expect(evaluate("nodes.score.points[-1]", data)).toEqual({ ok: true, value: 4 });
		expect(evaluate("'big' if trigger.amount > 100 else 'small'", data)).toEqual({ ok: true, value: "big" });
		expect(evaluate("3 in nodes.score.points and 'AC' in trigger.lead and not None", data)).toEqual({ ok: true, value: true });
		expect(evaluate("-7 // 2 == -4 and -7 % 3 == 2 and 0x10 == 16", data)).toEqual({ ok: true, value: true });
		expect(evaluate("'a\\tb' + \"c\"", data)).toEqual({ ok: true, value: "a\tbc" });
	});

	it("says in the server's words why it cannot be worked out, and never runs code", () => {
		expect(evaluate("nodes.score.colour", data)).toEqual({ ok: false, error: "There is no key 'colour' here; the keys are status, points." });
		expect(evaluate("missing", data)).toEqual({ ok: false, error: 'There is no value named "missing" in the flow\'s data.' });
		expect(evaluate("trigger.amount / 0", data)).toEqual({ ok: false, error: "The expression divides by zero." });
		expect(evaluate("trigger.lead - 1", data)).toEqual({ ok: false, error: "'-' works on numbers, not on a text and a number." });
		expect(evaluate("alert(1)", data)).toEqual({ ok: false, error: "Expressions cannot use function calls; use values from the flow, comparisons and arithmetic only." });
		expect(evaluate("constructor", data).ok).toBe(false);
	});

	it("fills a text's placeholders; a text that is one placeholder keeps its value", () => {
		expect(fill("Hi {{ trigger.lead }}, {{ nodes.score }}", data)).toEqual({ ok: true, value: 'Hi ACME, {"status":"hot","points":[3,4]}' });
		expect(fill("{{ trigger.amount }}", data)).toEqual({ ok: true, value: 120 });
		expect(fill("no placeholders", data)).toEqual({ ok: true, value: "no placeholders" });
		expect(fill("{{ nope }} here", data).ok).toBe(false);
		expect(shown(true)).toBe("True");
		expect(shown(null)).toBe("None");
	});
});
