import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { act, renderHook, waitFor } from "@testing-library/react";
import type { ReactNode } from "react";
import { describe, expect, it } from "vitest";
import { ApiError } from "./api";
import { useDraftForm } from "./form";
import { fieldOfRefusal, hasErrors, isWhole, NAME_PATTERN, type FieldErrors } from "./rules";

type Pet = { name: string; legs: number };
const rules = (pet: Pet): FieldErrors<Pet> => ({ ...(pet.name ? {} : { name: "Name the pet." }), ...(isWhole(pet.legs, 0, 8) ? {} : { legs: "Use a whole number from 0 to 8." }) });
const wrapper = ({ children }: { children: ReactNode }) => <QueryClientProvider client={new QueryClient()}>{children}</QueryClientProvider>;

function usePetForm(save: (pet: Pet) => Promise<string>, saved: string[] = []) {
	return useDraftForm({ initial: { name: "", legs: 4 }, validate: rules, save, onSaved: (name: string) => saved.push(name), what: "pet", fieldOf: (error) => fieldOfRefusal({ "Too Many Legs": "legs" }, "name")(error.title, error.kind) });
}

describe("a form's draft", () => {
	it("says what needs attention on Save, and forgets a field's mistake once it changes", () => {
		const { result } = renderHook(() => usePetForm(async (pet) => pet.name), { wrapper });
		act(() => result.current.set("legs", Number.NaN));
		act(() => result.current.submit());
		expect(result.current.errors).toEqual({ name: "Name the pet.", legs: "Use a whole number from 0 to 8." });
		expect(result.current.formError).toBe("Some fields need attention before the pet can be saved.");
		act(() => result.current.set("name", "Rex"));
		expect(result.current.errors).toEqual({ legs: "Use a whole number from 0 to 8." });
		expect(result.current.dirty).toBe(true);
	});

	it("saves what is right, and puts the server's refusal next to its field", async () => {
		const saved: string[] = [];
		const { result } = renderHook(() => usePetForm(async (pet) => (pet.legs > 4 ? Promise.reject(new ApiError("A pet has at most 4 legs here.", 417, "Too Many Legs")) : pet.name), saved), { wrapper });
		act(() => result.current.set("name", "Rex"));
		act(() => result.current.submit());
		await waitFor(() => expect(saved).toEqual(["Rex"]));
		act(() => result.current.set("legs", 6));
		act(() => result.current.submit());
		await waitFor(() => expect(result.current.errors).toEqual({ legs: "A pet has at most 4 legs here." }));
		expect(result.current.formError).toBeNull();
	});
});

describe("the shared rules", () => {
	it("check whole numbers, names and refusals the same way for every form", () => {
		expect([isWhole(3, 1), isWhole(0, 1), isWhole(2.5, 0), isWhole(Number.NaN, 0), isWhole(9, 0, 8)]).toEqual([true, false, false, false, false]);
		expect([NAME_PATTERN.test("Sales bot"), NAME_PATTERN.test("a/b"), NAME_PATTERN.test("")]).toEqual([true, false, false]);
		const fieldOf = fieldOfRefusal({ "Invalid URL": "address" }, "name");
		expect([fieldOf("Invalid URL", "ValidationError"), fieldOf("", "DuplicateEntryError"), fieldOf("Other", "ValidationError")]).toEqual(["address", "name", null]);
		expect([hasErrors({}), hasErrors({ name: "Name it." })]).toEqual([false, true]);
	});
});
