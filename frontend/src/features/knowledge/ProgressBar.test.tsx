import { cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { ProgressBar } from "./ProgressBar";

afterEach(cleanup);

const progress = { source: "Handbook", status: "Indexing", total_inputs: 5, indexed_inputs: 2, failed_inputs: 1, chunk_count: 1204, last_error: null };

describe("ProgressBar", () => {
	it("counts read and failed documents as done and says so to screen readers", () => {
		render(<ProgressBar name="Handbook" progress={progress} />);
		const bar = screen.getByRole("progressbar", { name: "Indexing Handbook: 3 of 5 documents" });
		expect(bar.getAttribute("aria-valuenow")).toBe("3");
		expect(bar.getAttribute("aria-valuemax")).toBe("5");
		expect(screen.getByText(/2 of 5 documents ready · 1,204 passages · 1 could not be read · indexing…/)).toBeTruthy();
	});

	it("follows a rebuild by documents read again", () => {
		render(<ProgressBar name="Handbook" progress={{ ...progress, status: "Rebuilding", rebuilt_inputs: 4, failed_inputs: 0 }} />);
		expect(screen.getByRole("progressbar").getAttribute("aria-valuenow")).toBe("4");
	});
});
