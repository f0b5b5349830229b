import { describe, expect, it } from "vitest";
import { leftOver, toolInputs, valueAt, withValue } from "./toolInputs";

// What huf/ai/tools/definition.py derives for a "Create Document" tool on ToDo.
const createTodo = JSON.stringify({
	name: "create_todo",
	description: "",
	parameters: {
		type: "object",
		properties: {
			data: {
				type: "object",
				description: "Field values of the ToDo.",
				properties: {
					description: { type: "string", description: "Description; required" },
					priority: { type: "string", enum: ["Low", "Medium", "High"], description: "Priority" },
					allocated_to: { type: "string", description: "Allocated To (name of a User)" },
					send_reminder: { type: "boolean", description: "Send Reminder" },
				},
			},
		},
		required: ["data"],
	},
});

describe("a tool's inputs", () => {
	it("offers a record tool's fields, with their types, from its definition", () => {
		const groups = toolInputs({ parameters: [], function_definition: createTodo });
		expect(groups).toHaveLength(1);
		const [group] = groups;
		expect(group?.legend).toBe("Record fields");
		expect(group?.inputs.map((input) => [input.path.join("."), input.label, input.type, input.required])).toEqual([
			["data.description", "Description", "string", true],
			["data.priority", "Priority", "string", false],
			["data.allocated_to", "Allocated To (name of a User)", "string", false],
			["data.send_reminder", "Send Reminder", "boolean", false],
		]);
		expect(group?.inputs[1]?.options).toEqual(["Low", "Medium", "High"]);
	});

	it("prefers the tool's own rows, and reads a definition already parsed", () => {
		const rows = [{ fieldname: "city", label: "City", type: "string", required: 1 as const, description: "Where" }];
		expect(toolInputs({ parameters: rows, function_definition: createTodo })[0]?.inputs).toEqual([{ path: ["city"], label: "City", type: "string", required: true, description: "Where" }]);
		const getDoc = { parameters: { type: "object", properties: { name: { type: "string", description: "The document's name (ID)." } }, required: ["name"] } };
		expect(toolInputs({ function_definition: getDoc })).toEqual([{ legend: null, hint: "", inputs: [{ path: ["name"], label: "Name", type: "string", required: true, description: "The document's name (ID)." }] }]);
	});

	it("lists nothing for a tool without a definition", () => {
		expect(toolInputs({ parameters: [], function_definition: "" })).toEqual([]);
		expect(toolInputs({ function_definition: "not json" })).toEqual([]);
	});

	it("writes a record's field under its input, and removes what is emptied", () => {
		let values = withValue({}, ["data", "description"], "{{ trigger.text }}");
		expect(values).toEqual({ data: { description: "{{ trigger.text }}" } });
		values = withValue(values, ["data", "priority"], "High");
		expect(valueAt(values, ["data", "priority"])).toBe("High");
		values = withValue(withValue(values, ["data", "priority"], ""), ["data", "description"], undefined);
		expect(values).toEqual({});
		expect(leftOver({ data: {}, note: "x" }, toolInputs({ function_definition: createTodo }))).toEqual(["note"]);
	});
});
