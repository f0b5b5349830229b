import { cleanup, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { useState } from "react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { renderPage } from "../../test/render";
import { McpSection } from "./McpSection";
import type { McpBinding } from "./validation";

vi.mock("../../lib/api", async (original) => ({
	...(await original<typeof import("../../lib/api")>()),
	getList: vi.fn(async () => [{ name: "docs", enabled: 1 }, { name: "github", enabled: 0 }]),
}));

afterEach(cleanup);

function Harness({ start }: { start: McpBinding[] }) {
	const [rows, setRows] = useState(start);
	return <McpSection rows={rows} error={undefined} onChange={setRows} />;
}

describe("McpSection", () => {
	it("shows how many tools each bound server brings and offers each server once", async () => {
		const user = userEvent.setup();
		renderPage(<Harness start={[{ mcp_server: "docs", enabled: 1, tool_count: 3 }]} />);
		expect(await screen.findByText("3 tools")).toBeTruthy();
		await user.click(screen.getByRole("button", { name: "Add a tool server" }));
		const second = screen.getAllByLabelText("Server")[1] as HTMLSelectElement;
		expect([...second.options].map((o) => o.textContent)).toEqual(["Choose a server…", "github (switched off)"]);
		expect(screen.getByText("Tools counted on save")).toBeTruthy();
		expect((screen.getByRole("button", { name: "Add a tool server" }) as HTMLButtonElement).disabled).toBe(true);
	});
});
