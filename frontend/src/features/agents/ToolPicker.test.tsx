import { cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { ToolPicker, type ToolRow } from "./ToolPicker";

afterEach(cleanup);

const tools: ToolRow[] = [
	{ name: "get_doctype_schema", description: "The fields of a DocType.", types: "App Provided", provider_app: "huf", sync_conflict: null },
	{ name: "helpdesk__create_ticket", description: "Open a ticket.", types: "App Provided", provider_app: "helpdesk", sync_conflict: null },
	{ name: "crm__create_ticket", description: "Made by hand.", types: "Custom Function", provider_app: null, sync_conflict: "The app crm declares a tool named crm__create_ticket, but this tool already has that name." },
];

describe("ToolPicker", () => {
	it("says which app a tool comes from and shows a name conflict on the tool that holds the name", () => {
		render(<ToolPicker tools={tools} selected={[]} onChange={() => undefined} />);
		expect(screen.getByText("From the app helpdesk")).toBeTruthy();
		expect(screen.queryByText("From the app huf")).toBeNull();
		expect(screen.getByText(/Name conflict: The app crm declares a tool named crm__create_ticket/)).toBeTruthy();
		expect(screen.getAllByText(/Name conflict/)).toHaveLength(1);
	});
});
