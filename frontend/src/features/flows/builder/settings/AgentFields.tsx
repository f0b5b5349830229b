// "Ask an agent": which agent, what to ask it, and whether its answer is text or named values
// (engine/flow/calls.py agent_run: config.agent, config.prompt, config.output_format).
import { Field, Select } from "../../../../components/ui/field";
import { useAgents } from "../choices";
import type { KindProps } from "./kit";
import { TextSetting } from "./TextSetting";

const text = (value: unknown) => (typeof value === "string" ? value : "");

export function AgentFields({ config, variables, errorOf, set }: KindProps) {
	const agents = useAgents();
	const chosen = text(config.agent);
	const list = agents.data ?? [];
	const known = list.find((agent) => agent.name === chosen);
	const structured = config.output_format === "json";
	return (
		<>
			<Field label="Agent" error={errorOf("agent") ?? (agents.isError ? agents.error.message : undefined)} hint={known?.disabled ? "This agent is turned off, so the step will fail until it is turned on again." : undefined}>
				{(props) => (
					<Select value={chosen} onChange={(e) => set({ agent: e.target.value })} {...props}>
						<option value="">{agents.isPending ? "Loading agents…" : "Choose an agent"}</option>
						{chosen && !known && !agents.isPending ? <option value={chosen}>{chosen} (not found)</option> : null}
						{list.map((agent) => (
							<option key={agent.name} value={agent.name}>
								{agent.disabled ? `${agent.name} (turned off)` : agent.name}
							</option>
						))}
					</Select>
				)}
			</Field>
			<TextSetting
				label="Instructions"
				hint="What the agent should do. Use the buttons to put in values from the flow."
				error={errorOf("prompt")}
				multiline
				placeholder="e.g. Score this lead from 0 to 100: {{ trigger.lead }}"
				value={config.prompt}
				onChange={(prompt) => set({ prompt })}
				insert={{ variables, form: "placeholder" }}
			/>
			<Field label="Answer" error={errorOf("output_format")} hint={structured ? "Tell the agent in the instructions which values to give back; later steps read them one by one. An answer in any other form fails the step." : "Later steps get the agent's answer as one text."}>
				{(props) => (
					<Select value={structured ? "json" : "text"} onChange={(e) => set({ output_format: e.target.value })} {...props}>
						<option value="text">Text</option>
						<option value="json">Named values (structured data)</option>
					</Select>
				)}
			</Field>
		</>
	);
}
