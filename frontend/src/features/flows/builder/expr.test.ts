// The expression checker against the server's own verdicts: every expected message below is what
// huf/ai/engine/flow/expr.py `check` answers for the same text (Python 3.11), so a change of wording
// on the server shows up here as a failing test.
import { describe, expect, it } from "vitest";
import { checkExpression, isPath, placeholders } from "./expr";

const ACCEPTED = [
	"trigger.lead.score > 50",
	"trigger['lead']['score'] >= 72 and trigger.lead.name == 'Ann'",
	"'hot' in trigger.lead.tags and 'cold' not in trigger.lead.tags",
	"1 < count <= 3",
	"a < b > c == d != e <= f >= g",
	"count * price + 1 - 2 / 4",
	"count // 2, count % 2, 2 ** 10",
	"-count",
	"+count",
	"- -1",
	"-2 ** -2",
	"not items",
	"not not a",
	"items[-1] + items[0]",
	"items[1:]",
	"items[1:3]",
	"items[::2]",
	"items[:]",
	"items[::]",
	"items[1:2:3]",
	"a[1, 2]",
	"a[1:2, ::3]",
	"name + '!' * 3",
	"[1, 'a', None, True] + items",
	"{'a': count, 'b': [name]}",
	"{}",
	"[]",
	"()",
	"(1,)",
	"1,",
	"{'a': {'b': [1, 2]}}['a']['b'][0]",
	"a.b[c].d['e'][0][1:2]",
	"nodes.score.output == '42'",
	"missing_ok if False else 'no'",
	"a if b else c if d else e",
	"(a if b else c).d",
	"count > 5 or name",
	"trigger.lead.score is None",
	"x is not None",
	"'}}' + x",
	"a['}}']",
	"\"it's\"",
	"'say \"hi\"'",
	"'both \\' \"'",
	"'''tri\nple'''",
	"r'\\d+'",
	"u'x'",
	"'a' 'b'",
	"'\\u00e9\\x41\\N{EM DASH}\\777\\q'",
	"名前 > 1",
	"ñame.é",
	"ｉｆ",
	"ﬁ > 1",
	"print",
	"match",
	"0x1F + 0o17 + 0b11 + 1_000 + 1e-3 + 2.5E+10 + .5 + 5.",
	"1if x else 2",
	"00",
	"012.5",
	"{**trigger}",
	"{**a, 'b': 1}",
	"(a\n and b)",
	"a \\\n and b",
	"a # why\n",
	"[1,\n 2,]",
	"  score > 50  ",
	"True.x",
	"None[0]",
	"1 .real",
	"-".repeat(39) + "1",
	"a" + ".b".repeat(38),
	Array(39).fill("a").join(" + "),
	`[${Array(198).fill("a").join(", ")}]`,
	"(".repeat(150) + "1" + ")".repeat(150) + ".a", // brackets alone add no depth
];

/** Read, but refused by the vetting: calls, hidden names, values that are not text or numbers. */
const REFUSED = [
	["().__class__.__bases__[0].__subclasses__()", "Expressions cannot use function calls; use values from the flow, comparisons and arithmetic only."],
	["().__class__", "The name '__class__' is not allowed; names cannot start with '_'."],
	["a.__class__", "The name '__class__' is not allowed; names cannot start with '_'."],
	["items.__len__", "The name '__len__' is not allowed; names cannot start with '_'."],
	["__builtins__", "The name '__builtins__' is not allowed; names cannot start with '_'."],
	["_", "The name '_' is not allowed; names cannot start with '_'."],
	["a._y + f()", "Expressions cannot use function calls; use values from the flow, comparisons and arithmetic only."],
	["f() + a._y", "The name '_y' is not allowed; names cannot start with '_'."],
	["__import__('os').system('id')", "Expressions cannot use function calls; use values from the flow, comparisons and arithmetic only."],
	["open('/etc/passwd')", "Expressions cannot use function calls; use values from the flow, comparisons and arithmetic only."],
	["'{0.__class__}'.format(items)", "Expressions cannot use function calls; use values from the flow, comparisons and arithmetic only."],
	["lambda: 1", "Expressions cannot use lambda; use values from the flow, comparisons and arithmetic only."],
	["lambda x, y=1: x", "Expressions cannot use lambda; use values from the flow, comparisons and arithmetic only."],
	["[x for x in items]", "Expressions cannot use comprehensions; use values from the flow, comparisons and arithmetic only."],
	["{x for x in items}", "Expressions cannot use comprehensions; use values from the flow, comparisons and arithmetic only."],
	["{x: 1 for x in items}", "Expressions cannot use comprehensions; use values from the flow, comparisons and arithmetic only."],
	["(x for x in items)", "Expressions cannot use comprehensions; use values from the flow, comparisons and arithmetic only."],
	["f(x for x in y)", "Expressions cannot use function calls; use values from the flow, comparisons and arithmetic only."],
	["f'{items}'", "Expressions cannot use f-strings; use values from the flow, comparisons and arithmetic only."],
	["'a' f'b'", "Expressions cannot use f-strings; use values from the flow, comparisons and arithmetic only."],
	["(y := 1)", "Expressions cannot use ':='; use values from the flow, comparisons and arithmetic only."],
	["a[x := 1]", "Expressions cannot use ':='; use values from the flow, comparisons and arithmetic only."],
	["[*items]", "Expressions cannot use '*' unpacking; use values from the flow, comparisons and arithmetic only."],
	["a[*b]", "Expressions cannot use '*' unpacking; use values from the flow, comparisons and arithmetic only."],
	["{1, 2}", "Expressions cannot use sets; use values from the flow, comparisons and arithmetic only."],
	["b'x'", "The value b'x' is not allowed; use text, numbers, True, False or None."],
	["b\"it's\"", "The value b\"it's\" is not allowed; use text, numbers, True, False or None."],
	["b'\\xff\\n'", "The value b'\\xff\\n' is not allowed; use text, numbers, True, False or None."],
	["1j", "The value 1j is not allowed; use text, numbers, True, False or None."],
	["1e20j", "The value 1e+20j is not allowed; use text, numbers, True, False or None."],
	["...", "The value Ellipsis is not allowed; use text, numbers, True, False or None."],
	["await x", "Expressions cannot use await; use values from the flow, comparisons and arithmetic only."],
	["(yield)", "Expressions cannot use yield; use values from the flow, comparisons and arithmetic only."],
	["a | b", "Expressions cannot use BitOr; use values from the flow, comparisons and arithmetic only."],
	["a & b", "Expressions cannot use BitAnd; use values from the flow, comparisons and arithmetic only."],
	["a ^ b", "Expressions cannot use BitXor; use values from the flow, comparisons and arithmetic only."],
	["a << b", "Expressions cannot use LShift; use values from the flow, comparisons and arithmetic only."],
	["a @ b", "Expressions cannot use MatMult; use values from the flow, comparisons and arithmetic only."],
	["~a", "Expressions cannot use Invert; use values from the flow, comparisons and arithmetic only."],
	["a.b | c._d", "The name '_d' is not allowed; names cannot start with '_'."],
	["", "The expression is empty; write one such as score > 50."],
	["   ", "The expression is empty; write one such as score > 50."],
];

/** Not read at all: Python's SyntaxError, quoted. */
const INVALID = [
	["＿x", "The expression '＿x' is not valid: invalid character '＿' (U+FF3F)."],
	["x >", "The expression 'x >' is not valid: invalid syntax."],
	["score >", "The expression 'score >' is not valid: invalid syntax."],
	["import os", "The expression 'import os' is not valid: invalid syntax."],
	["count = 1", "The expression 'count = 1' is not valid: invalid syntax."],
	["(a", "The expression '(a' is not valid: '(' was never closed."],
	["a.b(", "The expression 'a.b(' is not valid: '(' was never closed."],
	["a)", "The expression 'a)' is not valid: unmatched ')'."],
	["(a]", "The expression '(a]' is not valid: closing parenthesis ']' does not match opening parenthesis '('."],
	["(\na]", "The expression '(\\na]' is not valid: closing parenthesis ']' does not match opening parenthesis '(' on line 1."],
	["(a b", "The expression '(a b' is not valid: '(' was never closed."],
	["[a b]", "The expression '[a b]' is not valid: invalid syntax. Perhaps you forgot a comma?."],
	["a b", "The expression 'a b' is not valid: invalid syntax."],
	["a if b", "The expression 'a if b' is not valid: expected 'else' after 'if' expression."],
	["[a if b]", "The expression '[a if b]' is not valid: expected 'else' after 'if' expression."],
	["{1: 2, 3}", "The expression '{1: 2, 3}' is not valid: ':' expected after dictionary key."],
	["{1: }", "The expression '{1: }' is not valid: expression expected after dictionary key and ':'."],
	["(*a)", "The expression '(*a)' is not valid: cannot use starred expression here."],
	["*a, b", "The expression '*a, b' is not valid: invalid syntax."],
	["x := 1", "The expression 'x := 1' is not valid: invalid syntax."],
	["'abc", "The expression \"'abc\" is not valid: unterminated string literal (detected at line 1)."],
	["'''abc", "The expression \"'''abc\" is not valid: unterminated triple-quoted string literal (detected at line 1)."],
	["'a\nb'", "The expression \"'a\\nb'\" is not valid: unterminated string literal (detected at line 1)."],
	["01", "The expression '01' is not valid: leading zeros in decimal integer literals are not permitted; use an 0o prefix for octal integers."],
	["0x", "The expression '0x' is not valid: invalid hexadecimal literal."],
	["1_", "The expression '1_' is not valid: invalid decimal literal."],
	["1__0", "The expression '1__0' is not valid: invalid decimal literal."],
	["0b2", "The expression '0b2' is not valid: invalid digit '2' in binary literal."],
	["0o8", "The expression '0o8' is not valid: invalid digit '8' in octal literal."],
	["1abc", "The expression '1abc' is not valid: invalid decimal literal."],
	["1e", "The expression '1e' is not valid: invalid decimal literal."],
	["1jx", "The expression '1jx' is not valid: invalid imaginary literal."],
	["1.real", "The expression '1.real' is not valid: invalid decimal literal."],
	["a.if", "The expression 'a.if' is not valid: invalid syntax."],
	["a.True", "The expression 'a.True' is not valid: invalid syntax."],
	["a[]", "The expression 'a[]' is not valid: invalid syntax."],
	["a\nb", "The expression 'a\\nb' is not valid: invalid syntax."],
	["a\n  b", "The expression 'a\\n  b' is not valid: unexpected indent."],
	["€", "The expression '€' is not valid: invalid character '€' (U+20AC)."],
	["a€", "The expression 'a€' is not valid: invalid character '€' (U+20AC)."],
	["a\u00a0b", "The expression 'a\\xa0b' is not valid: invalid non-printable character U+00A0."],
	["a\u000bb", "The expression 'a\\x0bb' is not valid: invalid non-printable character U+000B."],
	["a $ b", "The expression 'a $ b' is not valid: invalid syntax."],
	["\\", "The expression '\\\\' is not valid: unexpected character after line continuation character."],
	["a \\ b", "The expression 'a \\\\ b' is not valid: unexpected character after line continuation character."],
	["b'\\x4'", "The expression \"b'\\\\x4'\" is not valid: (value error) invalid \\x escape at position 0."],
	["'\\x4'", "The expression \"'\\\\x4'\" is not valid: (unicode error) 'unicodeescape' codec can't decode bytes in position 0-2: truncated \\xXX escape."],
	["'\\é\\x4'", "The expression \"'\\\\é\\\\x4'\" is not valid: (unicode error) 'unicodeescape' codec can't decode bytes in position 16-18: truncated \\xXX escape."],
	["'\\U00110000'", "The expression \"'\\\\U00110000'\" is not valid: (unicode error) 'unicodeescape' codec can't decode bytes in position 0-9: illegal Unicode character."],
	["'\\N{abc'", "The expression \"'\\\\N{abc'\" is not valid: (unicode error) 'unicodeescape' codec can't decode bytes in position 0-5: malformed \\N character escape."],
	["b'é'", "The expression \"b'é'\" is not valid: bytes can only contain ASCII literal characters."],
	["b'a' 'b'", "The expression \"b'a' 'b'\" is not valid: cannot mix bytes and nonbytes literals."],
	["a\u0000", "The expression 'a\\x00' is not valid: source code string cannot contain null bytes."],
	["lambda:", "The expression 'lambda:' is not valid: invalid syntax."],
	["def", "The expression 'def' is not valid: invalid syntax."],
	["a; b", "The expression 'a; b' is not valid: invalid syntax."],
	["a<>b", "The expression 'a<>b' is not valid: invalid syntax."],
];

describe("checkExpression", () => {
	it.each(ACCEPTED)("accepts %j as the server does", (expression) => {
		expect(checkExpression(expression)).toBeUndefined();
	});

	it.each(REFUSED)("refuses %j in the server's words", (expression, message) => {
		expect(checkExpression(expression)).toBe(message);
	});

	it.each(INVALID)("says %j cannot be read, as Python says it", (expression, message) => {
		expect(checkExpression(expression)).toBe(message);
	});

	it("keeps to the server's limits of length, size and depth", () => {
		const tooLarge = "The expression is too large or too deeply nested; split it into simpler steps.";
		expect(checkExpression("x".repeat(2001))).toBe("The expression is 2,001 characters long; the limit is 2,000.");
		expect(checkExpression("x".repeat(2000))).toBeUndefined();
		expect(checkExpression("-".repeat(40) + "1")).toBe(tooLarge);
		expect(checkExpression("a" + ".b".repeat(39))).toBe(tooLarge);
		expect(checkExpression("[".repeat(40) + "]".repeat(40))).toBe(tooLarge);
		expect(checkExpression(Array(40).fill("a").join(" + "))).toBe(tooLarge);
		expect(checkExpression(`[${Array(199).fill("a").join(", ")}]`)).toBe(tooLarge);
		expect(checkExpression("1 + ".repeat(300) + "1")).toBe(tooLarge);
		expect(checkExpression("(".repeat(201) + ")".repeat(201))).toBe(`The expression '${"(".repeat(80)}' is not valid: too many nested parentheses.`);
		expect(checkExpression("(".repeat(200) + ")".repeat(200))).toBeUndefined();
	});
});

describe("placeholders", () => {
	it("finds each {{ ... }} as the server's pattern does, trimmed", () => {
		expect(placeholders("Hi {{ trigger.lead.name }} ({{trigger.lead.score}})")).toEqual(["trigger.lead.name", "trigger.lead.score"]);
		expect(placeholders("no {not one} {{}}")).toEqual([""]);
		expect(placeholders("{{ '}}' }}")).toEqual(["'"]); // the first }} closes it, quotes or not
		expect(placeholders("{{ a\n }}{{b}}")).toEqual(["a", "b"]);
		expect(placeholders("{{{ x }}}")).toEqual(["{ x"]);
		expect(placeholders("}}{{ x")).toEqual([]);
	});
});

describe("isPath", () => {
	it("is true only for a name followed by .key, [key] and [0] steps", () => {
		for (const path of ["trigger.lead.email", "trigger['lead'][0].email", "a", "(a).b", "a['b']['c']"]) expect(isPath(path)).toBe(true);
		for (const other of ["a.b[c]", "a[-1]", "a[1:2]", "a + b", "'x'.y", "a[b.c]", "a.__b", "x >"]) expect(isPath(other)).toBe(false);
	});
});
