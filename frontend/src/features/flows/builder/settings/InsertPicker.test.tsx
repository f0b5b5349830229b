import { cleanup, render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { useState } from "react";
import { afterEach, describe, expect, it } from "vitest";
import type { Config, LinkEdge, NodeType, StepNode } from "../catalog";
import { SampleContext, type Sample } from "../sample";
import { picks, variablesAt } from "../variables";
import { TextSetting, type InsertForm } from "./TextSetting";

afterEach(cleanup);

const node = (id: string, type: NodeType, config: Config = {}, label = id): StepNode => ({ id, type, position: { x: 0, y: 0 }, data: { label, config } });
const edge = (source: string, target: string): LinkEdge => ({ id: `${source}-${target}`, source, target, type: "always" });
const nodes = [node("start", "trigger.webhook", {}, "Lead comes in"), node("agent_run_1", "agent.run", {}, "Score lead"), node("http_request_1", "http_request", {}, "Look up the company"), node("end_1", "end")];
const edges = [edge("start", "agent_run_1"), edge("agent_run_1", "http_request_1"), edge("http_request_1", "end_1")];
const variables = variablesAt("end_1", nodes, edges);
const lastTest = { trigger: { lead: "ACME" }, nodes: { start: { lead: "ACME" }, agent_run_1: { status: "hot", points: 80 } } };

describe("the insert picker's entries", () => {
	it("names steps by their names, with the fields their results had in the last test run and each value", () => {
		const found = picks(variables, lastTest);
		const score = found.find((entry) => entry.insert === "nodes.agent_run_1");
		expect(found.map((entry) => entry.title)).toEqual(["Run input", "Look up the company", "Score lead", "Lead comes in"]);
		expect(score).toMatchObject({ title: "Score lead", has: true, value: { status: "hot", points: 80 } });
		expect(score?.fields.map((field) => [field.insert, field.title, field.value])).toEqual([
			["nodes.agent_run_1.status", "status", "hot"],
			["nodes.agent_run_1.points", "points", 80],
		]);
	});

	it("offers a step's declared fields when no test run has reached it", () => {
		const lookUp = picks(variables, lastTest).find((entry) => entry.title === "Look up the company");
		expect(lookUp?.has).toBe(false);
		expect(lookUp?.fields.map((field) => field.insert)).toEqual(["nodes.http_request_1.success", "nodes.http_request_1.status_code", "nodes.http_request_1.headers", "nodes.http_request_1.data", "nodes.http_request_1.final_url"]);
		expect(picks(variables, null).find((entry) => entry.title === "Score lead")?.fields).toEqual([]);
	});
});

function Setting({ form, sample, start = "" }: { form: InsertForm; sample: Sample; start?: string }) {
	const [value, setValue] = useState<unknown>(start);
	return (
		<SampleContext.Provider value={sample}>
			<TextSetting label="Condition" value={value} onChange={setValue} insert={{ variables, form }} />
		</SampleContext.Provider>
	);
}

describe("a setting that reads the flow's data", () => {
	it("shows each value by its step's name with a preview, and inserts the path an expression reads", async () => {
		const user = userEvent.setup();
		render(<Setting form="expression" sample={{ context: lastTest }} />);
		const status = screen.getByRole("button", { name: 'Insert Score lead › status "hot"' });
		expect(screen.getByRole("button", { name: "Insert Score lead {\"status\":\"hot\",\"points\":80}" })).toBeTruthy();
		await user.click(status);
		expect((screen.getByLabelText("Condition") as HTMLInputElement).value).toBe("nodes.agent_run_1.status");
		expect(screen.getByTestId("computed-value").textContent).toBe('With the last test run\'s values: "hot"');
	});

	it("works out the value with the last test run's values as you type", async () => {
		const user = userEvent.setup();
		render(<Setting form="expression" sample={{ context: lastTest }} />);
		const field = screen.getByLabelText("Condition");
		await user.type(field, "nodes.agent_run_1.points > 50");
		expect(screen.getByTestId("computed-value").textContent).toBe("With the last test run's values: True");
		await user.type(field, " and nodes.nothing");
		expect(screen.getByTestId("computed-value").textContent).toMatch(/cannot be worked out: There is no key 'nothing' here/);
	});

	it("fills a text's placeholders, and says nothing when there is no test run yet", () => {
		render(<Setting form="placeholder" sample={{ context: lastTest }} start="Dear {{ trigger.lead }}" />);
		expect(screen.getByTestId("computed-value").textContent).toBe("With the last test run's values: Dear ACME");
		cleanup();
		render(<Setting form="placeholder" sample={null} start="Dear {{ trigger.lead }}" />);
		expect(screen.queryByTestId("computed-value")).toBeNull();
		expect(screen.getByRole("button", { name: "Insert Score lead" })).toBeTruthy();
	});
});
