// Model text is only ever formatted, never run: markdown becomes HTML, then DOMPurify keeps only
// formatting tags and safe links (no scripts, event handlers, styles, images or javascript: URLs).
import DOMPurify from "dompurify";
import { marked } from "marked";

const ALLOWED_TAGS = ["p", "br", "strong", "em", "del", "code", "pre", "blockquote", "ul", "ol", "li", "a", "h1", "h2", "h3", "h4", "h5", "h6", "hr", "table", "thead", "tbody", "tr", "th", "td"];

let hooked = false;

export function renderMarkdown(text: string): string {
	if (!hooked) {
		DOMPurify.addHook("afterSanitizeAttributes", (node) => {
			if (node.tagName === "A") {
				node.setAttribute("target", "_blank");
				node.setAttribute("rel", "noopener noreferrer");
			}
			if (node.tagName === "PRE") node.setAttribute("tabindex", "0"); // a code block too wide for the screen scrolls: reachable with the keyboard
		});
		hooked = true;
	}
	const html = marked.parse(text, { async: false, gfm: true, breaks: true });
	return DOMPurify.sanitize(html, { ALLOWED_TAGS, ALLOWED_ATTR: ["href", "title"], ALLOWED_URI_REGEXP: /^(?:https?:|mailto:|\/|#)/i });
}
