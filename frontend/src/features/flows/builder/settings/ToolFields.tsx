// "Use a tool": which tool, then one field for each input it takes (toolInputs.ts: its parameter
// rows, or its definition, where a record tool lists the record's fields), filled into
// config.arguments (engine/flow/calls.py tool_call). Inputs saved earlier that the tool no longer
// lists stay, as text fields. A tool that lists no inputs gets a list of named inputs instead. A tool that asks a person first needs an approval step right before.
import { useId } from "react";
import { Checkbox, Field, Select } from "../../../../components/ui/field";
import { useToolList } from "../../../tools/api";
import { useTool } from "../choices";
import { Group, Note, type KindProps } from "./kit";
import { PairsEditor, type PairWords } from "./PairsEditor";
import { TextSetting } from "./TextSetting";
import { leftOver, toolInputs, valueAt, withValue, type ToolInput as Input } from "./toolInputs";

const INPUT_WORDS: PairWords = { legend: "Inputs", key: "Input name", value: "Value", keyExample: "data", valueExample: '{"description": "{{ trigger.lead }}"}', add: "Add an input" };

/** A value as typed: a record or list written in JSON is kept as one, anything else as text. */
function loose(value: string): unknown {
	if (!/^\s*[[{]/.test(value)) return value;
	try {
		return JSON.parse(value);
	} catch {
		return value;
	}
}

const text = (value: unknown) => (typeof value === "string" ? value : "");
const record = (value: unknown): Record<string, unknown> => (typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {});

export function ToolFields({ config, variables, errorOf, set }: KindProps) {
	const tools = useToolList();
	const chosen = text(config.tool);
	const { tool, definition, loading, error } = useTool(chosen);
	const values = record(config.arguments);
	const groups = tool ? toolInputs({ parameters: tool.parameters, function_definition: definition }) : [];
	const extra = leftOver(values, groups);
	const setValue = (path: string[], value: unknown) => set({ arguments: withValue(values, path, value) });
	const listed = tools.data?.some((row) => row.name === chosen);
	return (
		<>
			<Field label="Tool" error={errorOf("tool") ?? (tools.isError ? tools.error.message : undefined)} hint={tools.data?.find((row) => row.name === chosen)?.description ?? undefined}>
				{(props) => (
					// Another tool takes other inputs, so the values given to the last one go.
					<Select value={chosen} onChange={(e) => set({ tool: e.target.value, arguments: {} })} {...props}>
						<option value="">{tools.isPending ? "Loading tools…" : "Choose a tool"}</option>
						{chosen && !listed && !tools.isPending ? <option value={chosen}>{chosen} (not found)</option> : null}
						{tools.data?.map((row) => (
							<option key={row.name} value={row.name}>
								{row.name}
							</option>
						))}
					</Select>
				)}
			</Field>
			{tool?.requires_approval ? (
				<p role="note" className="rounded-md border border-amber-200 bg-amber-50 p-3 text-sm text-amber-900">
					This tool asks a person before it runs. Put an “Ask for approval” step right before this one, with only its “Approved” way out leading here.
				</p>
			) : null}
			{loading ? <p className="text-sm text-slate-500">Loading the tool’s inputs…</p> : null}
			{error ? <p className="text-sm text-red-600">{error.message}</p> : null}
			{errorOf("arguments") ? <p className="text-sm text-red-600">{errorOf("arguments")}</p> : null}
			{tool && !groups.length ? (
				// The tool lists no inputs (a record tool works them out when it runs): name them here.
				<PairsEditor words={INPUT_WORDS} value={values} error={errorOf("arguments")} hint="This tool does not list its inputs. Name each one and give its value; a value in braces or brackets is kept as a record or list." onChange={(pairs) => set({ arguments: Object.fromEntries(Object.entries(pairs).map(([key, value]) => [key, loose(value)])) })} />
			) : null}
			{groups.map((group) => {
				const inputs = group.inputs.map((input) => (
					<ToolInput key={input.path.join(".")} input={input} value={valueAt(values, input.path)} error={errorOf(`arguments.${input.path.join(".")}`)} variables={variables} onChange={(value) => setValue(input.path, value)} />
				));
				return group.legend ? (
					<Group key={group.legend} legend={group.legend} hint={`${group.hint} Leave empty what you do not want to set.`.trim()}>
						{inputs}
					</Group>
				) : (
					inputs
				);
			})}
			{(groups.length ? extra : []).map((key) => (
				<TextSetting key={key} label={key} hint="Saved earlier; the tool does not list this input." kind="value" value={values[key]} error={errorOf(`arguments.${key}`)} onChange={(value) => setValue([key], value)} insert={{ variables, form: "placeholder" }} />
			))}
		</>
	);
}

type ToolInputProps = { input: Input; value: unknown; error: string | undefined; variables: KindProps["variables"]; onChange: (value: unknown) => void };

/** One input of the tool: a tick box for yes/no, else a text field that may hold `{{ ... }}`;
 * a number, list or record typed in is kept as one. */
function ToolInput({ input, value, error, variables, onChange }: ToolInputProps) {
	const id = useId();
	const label = `${input.label}${input.required ? " (required)" : ""}`;
	const choices = input.options?.length ? `One of: ${input.options.join(", ")}.` : undefined;
	const hint = [input.description, choices].filter(Boolean).join(" ") || undefined;
	if (input.type === "boolean") {
		return (
			<div className="grid gap-1">
				<Checkbox label={label} checked={value === true} onChange={(e) => onChange(e.target.checked)} aria-invalid={Boolean(error)} aria-describedby={error || hint ? id : undefined} />
				<Note id={id} error={error} hint={hint} />
			</div>
		);
	}
	const number = input.type === "number" || input.type === "integer";
	return (
		<TextSetting
			label={label}
			hint={hint ?? (number ? "A number, or a value from the flow." : undefined)}
			error={error}
			kind={input.type === "string" ? "text" : "value"}
			value={value}
			onChange={onChange}
			insert={{ variables, form: "placeholder" }}
		/>
	);
}
