import { describe, expect, it } from "vitest";
import { renderMarkdown } from "./markdown";

/** Parses the rendered HTML without running anything in it. */
function fragment(html: string): DocumentFragment {
	const template = document.createElement("template");
	template.innerHTML = html;
	return template.content;
}

const attributeNames = (root: DocumentFragment) => [...root.querySelectorAll("*")].flatMap((element) => element.getAttributeNames());

describe("renderMarkdown", () => {
	it("turns a fenced code block into pre > code with its text escaped", () => {
		const html = renderMarkdown("```js\nif (a < b) run();\n```");
		const code = fragment(html).querySelector("pre > code");
		expect(code?.textContent).toBe("if (a < b) run();\n");
		expect(html).toContain("a &lt; b");
	});

	it("drops images with event handlers", () => {
		const html = renderMarkdown("Look <img src=x onerror=alert(1)> here");
		expect(fragment(html).querySelector("img")).toBeNull();
		expect(html).not.toMatch(/onerror/i);
		expect(fragment(html).textContent).toContain("Look");
	});

	it("drops scripts and their content", () => {
		const html = renderMarkdown("Hi\n\n<script>alert(1)</script>");
		expect(fragment(html).querySelector("script")).toBeNull();
		expect(html).not.toContain("alert(1)");
	});

	it("removes javascript: links", () => {
		const html = renderMarkdown("[x](javascript:alert(1))");
		expect(html).not.toMatch(/javascript:/i);
		expect(fragment(html).querySelector("a[href]")).toBeNull();
	});

	it("removes onclick attributes", () => {
		const html = renderMarkdown('<p onclick="alert(1)">hi</p> <a href="https://example.com" onclick="alert(1)">x</a>');
		expect(attributeNames(fragment(html))).not.toContain("onclick");
		expect(html).not.toContain("alert(1)");
	});

	it("opens normal links in a new tab without opener", () => {
		const link = fragment(renderMarkdown("See [Huf](https://example.com/docs).")).querySelector("a");
		expect(link?.getAttribute("href")).toBe("https://example.com/docs");
		expect(link?.getAttribute("target")).toBe("_blank");
		expect(link?.getAttribute("rel")).toBe("noopener noreferrer");
		expect(link?.textContent).toBe("Huf");
	});

	it("lets the keyboard reach a code block, which scrolls sideways when too wide", () => {
		const pre = fragment(renderMarkdown("```\nprint('" + "x".repeat(200) + "')\n```")).querySelector("pre");
		expect(pre?.getAttribute("tabindex")).toBe("0");
		expect(fragment(renderMarkdown('<pre tabindex="5">x</pre>')).querySelector("pre")?.getAttribute("tabindex")).toBe("0");
	});
});
