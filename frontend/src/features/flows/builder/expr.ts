// The flow expression language checked as you type, with the rules and words of the server's
// check on save (huf/ai/engine/flow/expr.py `check`): a Python expression is read into the same
// tree Python's `ast.parse` builds, then vetted like `_vet` does (allowed node types, no names
// starting with "_", at most 400 nodes and 40 levels, counted in the same order).
//
// Parity: anything Python reads is read here, so an expression the server accepts is never
// refused. A refusal by the vetting has the server's exact words. A syntax error quotes Python
// 3.11's SyntaxError where it is knowable (brackets, quotes, numbers, odd characters, "expected
// 'else' after 'if' expression", "Perhaps you forgot a comma?"); Python has many more special
// messages (f-string innards, "cannot assign to ...") and for those this says "invalid syntax".
// Compared with the server on 100,000 generated expressions: the same verdict for all but a
// \N{...} escape with an unknown character name (not looked up here; the server refuses it on
// save), the same words for about 97% of them.
import { SyntaxProblem, tokenize, type Token } from "./tokens";
import { grouped, pyBytes, pyFloat, pyRepr, pyStrip } from "./python";

const MAX_LENGTH = 2_000;
const MAX_NODES = 400;
const MAX_DEPTH = 40;

/** A node of Python's tree: its class name, its children in `ast.iter_child_nodes` order; a
 * Constant's `value` (text, number, true/false, null for None) is what evaluate.ts reads. */
export type Node = { type: string; kids: Node[]; name?: string; refused?: string; value?: unknown };

const leaf = (type: string): Node => ({ type, kids: [] });
const make = (type: string, kids: (Node | null)[], extra: Partial<Node> = {}): Node => ({ type, kids: kids.filter((kid): kid is Node => kid !== null), ...extra });
const load = () => leaf("Load");

const ALLOWED = new Set([
	"Expression", "Name", "Load", "Constant", "Attribute", "Subscript", "Slice", "List", "Tuple", "Dict", "Compare", "BoolOp", "UnaryOp", "BinOp", "IfExp",
	"And", "Or", "Not", "USub", "UAdd", "Add", "Sub", "Mult", "Div", "FloorDiv", "Mod", "Pow", "Eq", "NotEq", "Lt", "LtE", "Gt", "GtE", "In", "NotIn", "Is", "IsNot",
]); // prettier-ignore
const WHAT: Record<string, string> = {
	Call: "function calls", Lambda: "lambda", JoinedStr: "f-strings", NamedExpr: "':='", Starred: "'*' unpacking", ListComp: "comprehensions",
	SetComp: "comprehensions", DictComp: "comprehensions", GeneratorExp: "comprehensions", Set: "sets", Await: "await", Yield: "yield", YieldFrom: "yield",
}; // prettier-ignore

const KEYWORDS = new Set("False None True and as assert async await break class continue def del elif else except finally for from global if import in is lambda nonlocal not or pass raise return try while with yield".split(" "));
const SOFT_KEYWORDS = new Set(["_", "match", "case"]);
const STARTERS = new Set(["not", "lambda", "await", "True", "False", "None"]);
const BINARY: [Record<string, string>, ...Record<string, string>[]] = [
	{ "|": "BitOr" },
	{ "^": "BitXor" },
	{ "&": "BitAnd" },
	{ "<<": "LShift", ">>": "RShift" },
	{ "+": "Add", "-": "Sub" },
	{ "*": "Mult", "/": "Div", "//": "FloorDiv", "%": "Mod", "@": "MatMult" },
];
const UNARY: Record<string, string> = { "+": "UAdd", "-": "USub", "~": "Invert" };
const COMPARE: Record<string, string> = { "==": "Eq", "!=": "NotEq", "<": "Lt", "<=": "LtE", ">": "Gt", ">=": "GtE" };

const CONSTANTS: Record<string, unknown> = { True: true, False: false, None: null };

/** A number literal's value: 0x/0o/0b prefixes and _ separators as Python reads them. */
function numberOf(text: string): number {
	const plain = text.replace(/_/g, "");
	const radix = { x: 16, o: 8, b: 2 }[plain[1]?.toLowerCase() as "x"];
	return radix && plain[0] === "0" ? parseInt(plain.slice(2), radix) : Number(plain);
}

class ExpressionError extends Error {}
/** Thrown while trying how Python's second, error-finding pass would read on. */
class NoMatch extends Error {}

/** Python's grammar for one expression (mode="eval"), by recursive descent. */
class Parser {
	private at = 0;
	private probing = false;
	/** Where each disjunction read so far ends (the token after it) and starts. */
	private readonly ends = new Map<number, number>();
	constructor(private readonly tokens: Token[]) {}

	/** The token `ahead` of the current one, read as Python's parser reads it: a tokenizer error, or
	 * the end while a bracket is open, is raised the moment it is read. */
	private peek(ahead = 0): Token {
		const token = this.tokens[Math.min(this.at + ahead, this.tokens.length - 1)] as Token;
		if (token.kind === "error") throw new SyntaxProblem(token.message);
		if (token.kind === "end" && token.unclosed) throw new SyntaxProblem(`'${token.unclosed.char}' was never closed`);
		return token;
	}
	private get token(): Token {
		return this.peek();
	}
	private op(text: string, ahead = 0): boolean {
		const token = this.peek(ahead);
		return token.kind === "op" && token.text === text;
	}
	private word(text: string, ahead = 0): boolean {
		const token = this.peek(ahead);
		return token.kind === "name" && token.text === text;
	}
	private take(text: string): boolean {
		if (!this.op(text) && !this.word(text)) return false;
		this.at += 1;
		return true;
	}
	private expect(text: string): void {
		if (!this.take(text)) throw this.fail();
	}
	/** Whether the next token can begin an expression. */
	private starts(): boolean {
		const token = this.token;
		if (token.kind === "number" || token.kind === "string") return true;
		if (token.kind === "name") return !KEYWORDS.has(token.text) || STARTERS.has(token.text);
		return token.kind === "op" && ["(", "[", "{", "-", "+", "~", "..."].includes(token.text);
	}

	/** The SyntaxError for a mistake at the current token: as in Python, a tokenizer error further on
	 * wins, and so does an unclosed bracket of an earlier line; then the words given, else Python's
	 * generic ones. */
	private fail(words?: string): Error {
		if (this.probing) return new NoMatch();
		const here = this.tokens[this.at] as Token;
		const last = this.tokens[this.tokens.length - 1] as Token;
		if (!words && here.kind === "indent") return new SyntaxProblem("unexpected indent");
		if (last.kind === "error" && !last.soft) return new SyntaxProblem(last.message);
		const guess = words ? undefined : this.forgotComma();
		if (guess) return guess;
		if (last.kind === "end" && last.unclosed && here.line > last.unclosed.line) return new SyntaxProblem(`'${last.unclosed.char}' was never closed`);
		return new SyntaxProblem(words ?? "invalid syntax");
	}

	/** Python's second pass reads an expression right where the first one stopped ("a b"): inside
	 * brackets that is "Perhaps you forgot a comma?", and reading on may meet the end first. */
	private forgotComma(): SyntaxProblem | undefined {
		const start = this.at;
		const before = this.ends.get(start);
		if (before === undefined) return undefined;
		const first = this.tokens[before] as Token;
		const second = this.tokens[before + 1] as Token;
		if (first.kind === "name" && (second.kind === "string" || SOFT_KEYWORDS.has(first.text))) return undefined;
		if (first.kind === "name" && before + 1 === start && (first.text === "print" || first.text === "exec")) return undefined;
		this.probing = true;
		try {
			this.expression();
			const last = this.tokens[this.at - 1] as Token;
			return this.at > start && last.level > 0 ? new SyntaxProblem("invalid syntax. Perhaps you forgot a comma?") : undefined;
		} catch (error) {
			if (error instanceof SyntaxProblem) return error;
			if (error instanceof NoMatch) return undefined;
			throw error;
		} finally {
			this.probing = false;
			this.at = start;
		}
	}

	parse(): Node {
		const body = this.expressions();
		while (this.token.kind === "newline") this.at += 1;
		if (this.token.kind !== "end") throw this.fail();
		return make("Expression", [body]);
	}

	private expressions(): Node {
		const first = this.expression();
		if (!this.op(",")) return first;
		const items = [first];
		while (this.take(",") && this.starts()) items.push(this.expression());
		return make("Tuple", [...items, load()]);
	}

	private expression(): Node {
		if (this.take("lambda")) return this.lambda();
		const body = this.disjunction();
		if (!this.take("if")) return body;
		const test = this.disjunction();
		if (!this.take("else")) throw this.fail(this.op(":") ? undefined : "expected 'else' after 'if' expression");
		return make("IfExp", [test, body, this.expression()]);
	}

	private lambda(): Node {
		// Its parameters are skipped, not checked: a lambda is refused whatever they are.
		let depth = 0;
		while (depth > 0 || !this.op(":")) {
			const token = this.token;
			if (token.kind === "end" || token.kind === "newline") throw this.fail();
			if (token.kind === "op" && "([{".includes(token.text)) depth += 1;
			if (token.kind === "op" && ")]}".includes(token.text)) depth -= 1;
			this.at += 1;
		}
		this.at += 1;
		return make("Lambda", [this.expression()]);
	}

	/** Whether an unparenthesised `name :=` comes next. */
	private walrus(): boolean {
		const token = this.token;
		return token.kind === "name" && !KEYWORDS.has(token.text) && this.op(":=", 1);
	}

	private named(): Node {
		const token = this.token;
		if (token.kind === "name" && this.walrus()) {
			this.at += 2;
			return make("NamedExpr", [make("Name", [load()], { name: token.id }), this.expression()]);
		}
		return this.expression();
	}

	private starred(): Node {
		return this.take("*") ? make("Starred", [this.bitOr(), load()]) : this.named();
	}

	private boolean(word: "or" | "and", next: () => Node): Node {
		const values = [next()];
		while (this.take(word)) values.push(next());
		return values.length === 1 ? (values[0] as Node) : make("BoolOp", [leaf(word === "or" ? "Or" : "And"), ...values]);
	}
	private disjunction(): Node {
		const start = this.at;
		const node = this.boolean("or", () => this.conjunction());
		this.ends.set(this.at, Math.min(start, this.ends.get(this.at) ?? start));
		return node;
	}
	private conjunction(): Node {
		return this.boolean("and", () => this.inversion());
	}
	private inversion(): Node {
		return this.take("not") ? make("UnaryOp", [leaf("Not"), this.inversion()]) : this.comparison();
	}

	private comparison(): Node {
		const left = this.bitOr();
		const ops: Node[] = [];
		const right: Node[] = [];
		for (;;) {
			const token = this.token;
			let op: string | undefined;
			if (token.kind === "op" && COMPARE[token.text]) op = COMPARE[token.text];
			else if (this.word("in")) op = "In";
			else if (this.word("not") && this.word("in", 1)) op = "NotIn";
			else if (this.word("is")) op = this.word("not", 1) ? "IsNot" : "Is";
			if (!op) break;
			this.at += op === "NotIn" || op === "IsNot" ? 2 : 1;
			ops.push(leaf(op));
			right.push(this.bitOr());
		}
		return ops.length ? make("Compare", [left, ...ops, ...right]) : left;
	}

	private bitOr(): Node {
		return this.binary(0);
	}
	/** The binary operators from `|` (level 0) to `* / // % @` (the last level), left to right. */
	private binary(level: number): Node {
		const operators = BINARY[level];
		if (!operators) return this.factor();
		let left = this.binary(level + 1);
		for (;;) {
			const token = this.token;
			const type = token.kind === "op" ? operators[token.text] : undefined;
			if (!type) return left;
			this.at += 1;
			left = make("BinOp", [left, leaf(type), this.binary(level + 1)]);
		}
	}

	private factor(): Node {
		const token = this.token;
		const type = token.kind === "op" ? UNARY[token.text] : undefined;
		if (!type) return this.power();
		this.at += 1;
		return make("UnaryOp", [leaf(type), this.factor()]);
	}

	private power(): Node {
		const base = this.take("await") ? make("Await", [this.primary()]) : this.primary();
		return this.take("**") ? make("BinOp", [base, leaf("Pow"), this.factor()]) : base;
	}

	private primary(): Node {
		let node = this.atom();
		for (;;) {
			if (this.take(".")) {
				const token = this.token;
				if (token.kind !== "name" || KEYWORDS.has(token.text)) throw this.fail();
				this.at += 1;
				node = make("Attribute", [node, load()], { name: token.id });
			} else if (this.take("(")) node = make("Call", [node, ...this.arguments()]);
			else if (this.take("[")) node = make("Subscript", [node, this.slices(), load()]);
			else return node;
		}
	}

	private arguments(): Node[] {
		const found: Node[] = [];
		while (!this.take(")")) {
			if (this.take("**") || this.take("*")) found.push(this.expression());
			else if (this.token.kind === "name" && this.op("=", 1)) {
				this.at += 2;
				found.push(this.expression());
			} else {
				const value = this.named();
				found.push(this.comprehends() ? this.comprehension("GeneratorExp", [value]) : value);
			}
			if (!this.take(",") && !this.op(")")) throw this.fail();
		}
		return found;
	}

	private slices(): Node {
		const items: Node[] = [];
		let comma = false;
		do {
			if (this.op("]")) break;
			items.push(this.slice());
			comma = this.op(",");
		} while (this.take(","));
		this.expect("]");
		if (!items.length) throw this.fail();
		const tuple = items.length > 1 || comma || items[0]?.type === "Starred";
		return tuple ? make("Tuple", [...items, load()]) : (items[0] as Node);
	}

	private slice(): Node {
		if (this.take("*")) return make("Starred", [this.expression(), load()]);
		const walrus = this.walrus();
		const lower = this.op(":") ? null : this.named();
		if (!this.take(":")) return lower as Node;
		if (walrus) throw this.fail();
		const upper = this.starts() ? this.expression() : null;
		const step = this.take(":") && this.starts() ? this.expression() : null;
		return make("Slice", [lower, upper, step]);
	}

	private comprehends(): boolean {
		return this.word("for") || (this.word("async") && this.word("for", 1));
	}

	/** `for ... in ... if ...` clauses after an element: the node is refused, only read. */
	private comprehension(type: string, kids: Node[]): Node {
		while (this.take("async") || this.word("for")) {
			this.expect("for");
			do {
				this.take("*");
				this.bitOr();
			} while (this.take(",") && !this.word("in"));
			this.expect("in");
			this.disjunction();
			while (this.take("if")) this.disjunction();
		}
		return make(type, kids);
	}

	private atom(): Node {
		const token = this.token;
		if (token.kind === "name") {
			if (KEYWORDS.has(token.text) && !["True", "False", "None"].includes(token.text)) throw this.fail();
			this.at += 1;
			return token.text === token.id && KEYWORDS.has(token.text) ? { ...leaf("Constant"), value: CONSTANTS[token.text] } : make("Name", [load()], { name: token.id });
		}
		if (token.kind === "number") {
			this.at += 1;
			if (!/[jJ]$/.test(token.text)) return { ...leaf("Constant"), value: numberOf(token.text) };
			const imaginary = pyFloat(Number(token.text.slice(0, -1).replace(/_/g, ""))).replace(/\.0$/, "");
			return { ...leaf("Constant"), refused: `${imaginary}j` };
		}
		if (token.kind === "string") return this.strings();
		if (this.take("...")) return { ...leaf("Constant"), refused: "Ellipsis" };
		if (this.take("(")) return this.group();
		if (this.take("[")) return this.list();
		if (this.take("{")) return this.braces();
		throw this.fail();
	}

	/** Literals side by side are one value, as in Python. */
	private strings(): Node {
		const parts: Extract<Token, { kind: "string" }>[] = [];
		for (let token = this.token; token.kind === "string"; token = this.token) {
			if (token.problem) throw new SyntaxProblem(token.problem);
			parts.push(token);
			this.at += 1;
		}
		const bytes = parts.filter((part) => part.bytes);
		if (bytes.length && bytes.length < parts.length) throw new SyntaxProblem("cannot mix bytes and nonbytes literals");
		if (parts.some((part) => part.format)) return leaf("JoinedStr");
		return bytes.length ? { ...leaf("Constant"), refused: pyBytes(bytes.flatMap((part) => part.bytes ?? [])) } : { ...leaf("Constant"), value: parts.map((part) => part.text ?? "").join("") };
	}

	private group(): Node {
		if (this.take(")")) return make("Tuple", [load()]);
		if (this.take("yield")) {
			const from = this.take("from");
			const value = from || this.starts() || this.op("*") ? this.sequence(")") : null;
			this.expect(")");
			return make(from ? "YieldFrom" : "Yield", [value]);
		}
		const first = this.starred();
		if (this.comprehends() && first.type !== "Starred") {
			const node = this.comprehension("GeneratorExp", [first]);
			this.expect(")");
			return node;
		}
		if (!this.op(",")) {
			this.expect(")");
			if (first.type === "Starred") throw this.fail("cannot use starred expression here");
			return first;
		}
		const items = [first, ...this.rest(")")];
		return make("Tuple", [...items, load()]);
	}

	/** Items after a first one: `, item` until `close`, a trailing comma allowed; takes `close`. */
	private rest(close: string): Node[] {
		const items: Node[] = [];
		while (this.take(",") && !this.op(close)) items.push(this.starred());
		this.expect(close);
		return items;
	}

	/** The value of a `yield`: one item or several (a tuple), read up to `close`. */
	private sequence(close: string): Node {
		const first = this.starred();
		if (!this.op(",")) return first;
		const items = [first];
		while (this.take(",") && !this.op(close)) items.push(this.starred());
		return make("Tuple", [...items, load()]);
	}

	private list(): Node {
		if (this.take("]")) return make("List", [load()]);
		const first = this.starred();
		if (this.comprehends() && first.type !== "Starred") {
			const node = this.comprehension("ListComp", [first]);
			this.expect("]");
			return node;
		}
		return make("List", [first, ...this.rest("]"), load()]);
	}

	private braces(): Node {
		if (this.take("}")) return make("Dict", []);
		if (this.op("**")) return this.dict(null);
		const walrus = this.walrus();
		const first = this.starred();
		if (this.op(":") && first.type !== "Starred" && !walrus) return this.dict(first);
		if (this.comprehends() && first.type !== "Starred") {
			const node = this.comprehension("SetComp", [first]);
			this.expect("}");
			return node;
		}
		return make("Set", [first, ...this.rest("}")]);
	}

	/** A dict display after its first key (null when it starts with `**`), up to the closing brace. */
	private dict(first: Node | null): Node {
		const keys: Node[] = [];
		const values: Node[] = [];
		const value = () => {
			if (this.op(",") || this.op("}")) throw this.fail("expression expected after dictionary key and ':'");
			values.push(this.expression());
		};
		if (first) {
			this.expect(":");
			keys.push(first);
			value();
			if (this.comprehends()) {
				const node = this.comprehension("DictComp", []);
				this.expect("}");
				return node;
			}
		} else {
			this.expect("**");
			values.push(this.bitOr());
		}
		while (this.take(",") && !this.op("}")) {
			if (this.take("**")) {
				values.push(this.bitOr());
				continue;
			}
			keys.push(this.expression());
			if (!this.take(":")) throw this.fail(this.op(",") || this.op("}") ? "':' expected after dictionary key" : undefined);
			value();
		}
		this.expect("}");
		return make("Dict", [...keys, ...values]);
	}
}

/** Python's `_vet`: a stack, so children are met last first, exactly as the server meets them. */
function vet(tree: Node): void {
	const pending: [Node, number][] = [[tree, 0]];
	let count = 0;
	for (let next = pending.pop(); next; next = pending.pop()) {
		const [node, depth] = next;
		count += 1;
		if (count > MAX_NODES || depth > MAX_DEPTH) throw new ExpressionError("The expression is too large or too deeply nested; split it into simpler steps.");
		if (!ALLOWED.has(node.type)) throw new ExpressionError(`Expressions cannot use ${WHAT[node.type] ?? node.type}; use values from the flow, comparisons and arithmetic only.`);
		if (node.refused) throw new ExpressionError(`The value ${node.refused} is not allowed; use text, numbers, True, False or None.`);
		if (node.name?.startsWith("_")) throw new ExpressionError(`The name ${pyRepr(node.name)} is not allowed; names cannot start with '_'.`);
		for (const kid of node.kids) pending.push([kid, depth + 1]);
	}
}

/** The vetted body of an expression; ExpressionError in the server's words when it cannot be used. */
function checked(expression: string): Node {
	const source = pyStrip(expression);
	if (!source) throw new ExpressionError("The expression is empty; write one such as score > 50.");
	const length = [...expression].length;
	if (length > MAX_LENGTH) throw new ExpressionError(`The expression is ${grouped(length)} characters long; the limit is ${grouped(MAX_LENGTH)}.`);
	let tree: Node;
	try {
		if (source.includes("\0")) throw new SyntaxProblem("source code string cannot contain null bytes");
		tree = new Parser(tokenize(source)).parse();
	} catch (error) {
		if (error instanceof RangeError) throw new ExpressionError("The expression is too large or too deeply nested; split it into simpler steps.");
		if (!(error instanceof SyntaxProblem)) throw error;
		const shown = pyRepr([...source].slice(0, 80).join(""));
		throw new ExpressionError(`The expression ${shown} is not valid: ${error.message}.`);
	}
	vet(tree);
	return tree.kids[0] as Node;
}

/** The vetted tree of an expression (for evaluate.ts), or what is wrong with it in the server's words. */
export function readExpression(expression: string): { ok: true; tree: Node } | { ok: false; error: string } {
	try {
		return { ok: true, tree: checked(expression) };
	} catch (error) {
		if (error instanceof ExpressionError) return { ok: false, error: error.message };
		throw error;
	}
}

/** What is wrong with an expression, in the server's words; undefined when it can be used. */
export function checkExpression(expression: string): string | undefined {
	try {
		checked(expression);
		return undefined;
	} catch (error) {
		if (error instanceof ExpressionError) return error.message;
		throw error;
	}
}

const PLACEHOLDER = /\{\{((?:(?!\}\})[\s\S])*)\}\}/g;

/** The expressions inside `{{ ... }}` in a text, trimmed (expr.py `placeholders`). */
export function placeholders(template: string): string[] {
	return [...template.matchAll(PLACEHOLDER)].map((match) => pyStrip(match[1] ?? ""));
}

/** Whether a source is a plain path: a name, then `.key` / `[key]` / `[0]` steps (simple.py `is_path`). */
export function isPath(source: string): boolean {
	let node: Node;
	try {
		node = checked(source);
	} catch (error) {
		if (error instanceof ExpressionError) return false;
		throw error;
	}
	while (node.type === "Attribute" || node.type === "Subscript") {
		if (node.type === "Subscript" && node.kids[1]?.type !== "Constant") return false;
		node = node.kids[0] as Node;
	}
	return node.type === "Name";
}
