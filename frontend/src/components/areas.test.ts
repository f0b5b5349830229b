import { describe, expect, it } from "vitest";
import type { Capabilities, Capability } from "../lib/boot";
import { areasFor, changesAnything } from "./areas";

const ALL: Capability[] = [
	"agent.read", "agent.run", "agent.write", "run.read", "run.read.all", "tool.read", "tool.write", "tool.mcp.write", "provider.write",
	"knowledge.read", "knowledge.write", "flow.read", "flow.run", "flow.write", "trigger.write", "prompt.read", "prompt.write", "table.read", "table.write", "integration.write", "settings.write",
];  // prettier-ignore

const holding = (...held: Capability[]) => Object.fromEntries(ALL.map((name) => [name, held.includes(name)])) as Capabilities;
const labels = (capabilities: Capabilities) => areasFor(capabilities).map((area) => area.label);

describe("the areas a person sees", () => {
	it("shows a viewer only agents and their own runs, and no admin screens", () => {
		const viewer = holding("agent.read", "run.read");
		expect(labels(viewer)).toEqual(["Agents", "Runs"]);
		expect(changesAnything(viewer)).toBe(false);
	});

	it("shows everything, Settings included, to someone with every permission", () => {
		const admin = holding(...ALL);
		expect(labels(admin)).toEqual(["Chat", "Agents", "Tools", "Flows", "Waiting for me", "Prompts", "Knowledge", "Tables", "Providers", "Runs", "Integrations", "Settings"]);
		expect(changesAnything(admin)).toBe(true);
	});

	it("follows each capability on its own: prompts alone, or providers alone", () => {
		expect(labels(holding("prompt.read"))).toEqual(["Prompts"]);
		expect(labels(holding("provider.write"))).toEqual(["Providers"]);
		expect(labels(holding("integration.write"))).toEqual(["Integrations"]);
		expect(changesAnything(holding("provider.write"))).toBe(true);
	});
});
