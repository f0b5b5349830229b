"""The flow builder's canvas on a 200-step flow, in headless Chromium against the real site: how long
the canvas takes from mounting to its first paint with every step on screen drawn and measured, and
how long one mouse move takes to show while a step is dragged.

Run from the bench's sites folder with the bench's Python, on a throwaway site with Huf installed and
the web app built (`npm --prefix frontend run build`):
    ../env/bin/python /path/to/huf/benchmarks/flow_canvas.py --site <site> [--rounds 15] [--steps 200]

First render: the page's own User Timing measure ``huf:flow-canvas-first-render`` (builder/marks.ts),
from the builder mounting to the end of the first frame painted once every step on screen is drawn
and measured by React Flow, taken on a fresh load of the page each round. Drag: for every mouse move
of a drag (60 per round, to and fro inside the canvas), the time from the browser's pointer event to
the dragged step's new position in the page (a MutationObserver sees the style change React Flow
writes). Prints medians with their range; the budgets are 100 ms and 16 ms.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.append(str(ROOT))

import frappe  # noqa: E402

FLOW = "bench-canvas-200"
USER = "canvas-bench@huf.test"
PASSWORD = "huf-Bench-pw-1"
MOVES = 60

# Watches one step while it is dragged: each pointer move's time, and when the step's style changed.
WATCH = """(id) => {
	const node = document.querySelector(`.react-flow__node[data-id="${id}"]`);
	window.__moves = []; window.__paints = [];
	window.addEventListener("mousemove", (event) => window.__moves.push(event.timeStamp), { capture: true });
	new MutationObserver(() => window.__paints.push(performance.now())).observe(node, { attributes: true, attributeFilter: ["style"] });
}"""
# Each change of the step's position, from the pointer move that caused it (the last one before it).
LATENCIES = """() => window.__paints.map((seen) => { const moves = window.__moves.filter((at) => at <= seen); return moves.length ? seen - moves[moves.length - 1] : null; })"""


def flow(steps: int) -> dict:
	"""A trigger, then steps in rows of 20, each row's steps leading to the next; every fifth one a condition."""
	nodes, edges = [{"id": "start", "type": "trigger.webhook", "position": {"x": 0, "y": 0}, "data": {"label": "Start", "config": {}}}], []
	for n in range(1, steps):
		kind = "condition" if n % 5 == 0 else "transform"
		config = {"expression": f"trigger.score > {n}"} if kind == "condition" else {"mode": "map", "mappings": {f"value_{n}": "trigger.score"}}
		nodes.append({"id": f"s{n}", "type": kind, "position": {"x": (n % 20) * 300, "y": (n // 20) * 160}, "data": {"label": f"Step {n}", "config": config}})
		previous = nodes[-2]
		edge = {"id": f"e{n}", "source": previous["id"], "target": f"s{n}", "type": "always"}
		if previous["type"] == "condition":
			edge["sourceHandle"] = "true"
		edges.append(edge)
	return {"id": FLOW, "schema_version": 1, "max_hops": 1000, "nodes": nodes, "edges": edges}


def sway(step: int) -> int:
	"""Grid squares to the right at a move: to and fro over ten squares, so every move lands on a new
	snapped place and the mouse stays well inside the canvas (near its edge React Flow would scroll it)."""
	return 10 - abs(step % 20 - 10)


def spread(values: list[float]) -> str:
	return f"{statistics.median(values):.1f} ms (range {min(values):.1f}-{max(values):.1f}, {len(values)} samples)"


def main() -> None:
	parser = argparse.ArgumentParser()
	parser.add_argument("--site", required=True)
	parser.add_argument("--rounds", type=int, default=15)
	parser.add_argument("--steps", type=int, default=200)
	args = parser.parse_args()
	frappe.init(site=args.site, sites_path=os.getcwd())
	frappe.connect()
	frappe.set_user("Administrator")

	from frappe.utils.password import update_password
	from playwright.sync_api import sync_playwright

	from huf.ai.flow import api
	from tests.e2e.conftest import CHROMIUM, FLAGS
	from tests.site.conftest import Web, make_user

	make_user(USER, ["Huf User", "Huf Manager"])
	update_password(USER, PASSWORD)
	api.save_flow_definition(FLOW, flow(args.steps), flow_name="Canvas benchmark", status="Draft")
	frappe.db.commit()
	web = Web(args.site, workers=2)
	first, drags = [], []
	try:
		with sync_playwright() as playwright:
			browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=FLAGS)
			context = browser.new_context(base_url=web.base, extra_http_headers={"X-Frappe-Site-Name": web.site}, viewport={"width": 1600, "height": 1000})
			page = context.new_page()
			page.request.post("/api/method/login", data={"usr": USER, "pwd": PASSWORD})
			for round_ in range(args.rounds + 1):
				page.goto(f"/huf/flows/{FLOW}")
				page.wait_for_function("performance.getEntriesByName('huf:flow-canvas-first-render').length > 0")
				measured = page.evaluate("performance.getEntriesByName('huf:flow-canvas-first-render')[0].duration")
				target = page.locator('.react-flow__node[data-id="s21"]')
				box = target.bounding_box()
				page.evaluate(WATCH, "s21")
				x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
				grid = box["width"] / 240 * 20  # one grid square on screen: every move lands on a new snapped position
				page.mouse.move(x, y)
				page.mouse.down()
				for step in range(1, MOVES + 1):
					page.mouse.move(x + sway(step) * grid, y + (step % 2) * grid)
				page.mouse.up()
				latencies = [value for value in page.evaluate(LATENCIES) if value is not None]
				if round_:  # the first round warms the web server and the browser's cache
					first.append(measured)
					drags.extend(latencies[1:])  # the first change starts the drag
			browser.close()
	finally:
		web.stop()
	print(f"flow canvas, {args.steps} steps, {args.rounds} rounds (headless Chromium, 1600x1000):")
	print(f"  first render (mount -> painted, steps measured): {spread(first)}; budget 100 ms, median ratio {statistics.median(first) / 100:.2f}")
	print(f"  drag update (pointer move -> step moved):   {spread(drags)}; p95 {statistics.quantiles(drags, n=20)[-1]:.1f} ms; budget 16 ms, median ratio {statistics.median(drags) / 16:.2f}")


if __name__ == "__main__":
	main()
