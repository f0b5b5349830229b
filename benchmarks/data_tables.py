"""Data tables (huf/ai/data_tables/api.py): creating a table with 20 fields, and a 10,000-row CSV import.

Run from the bench's sites folder with the bench's Python, on a site with Huf installed:
    ../env/bin/python /path/to/huf/benchmarks/data_tables.py --site <site> [--repeat 5] [--rows 10000]

Each repeat creates "Bench Data Table <i>" (20 fields: Data, Text, Int, Float, Currency, Date,
Datetime, Check, Select and Link, two of each) through ``create_data_table`` (timed: the checks,
the DocType with its table, the registry row), then imports a CSV of ``--rows`` rows into it
through ``import_csv`` (timed: parsing, checking every row, the inserts; committed, as a request
would be), and deletes the table. A table left by an interrupted run is deleted first. Runs as
Administrator. Prints the median and the spread of each.
"""

from __future__ import annotations

import argparse
import csv
import io
import json
import os
import statistics
import time

PREFIX = "Bench Data Table"
TYPES = ("Data", "Text", "Int", "Float", "Currency", "Date", "Datetime", "Check", "Select", "Link")


def fields() -> list[dict]:
	out = []
	for i in range(20):
		fieldtype = TYPES[i % len(TYPES)]
		field = {"label": f"{fieldtype} {i}", "fieldname": f"{fieldtype.lower()}_{i}", "fieldtype": fieldtype}
		if fieldtype == "Select":
			field["options"] = "Open\nClosed\nWaiting"
		if fieldtype == "Link":
			field["options"] = "User"
		out.append(field)
	out[0]["reqd"] = 1
	return out


def content(rows: int) -> str:
	values = {
		"Data": lambda n: f"item {n}",
		"Text": lambda n: f"a longer note about item {n}, " * 3,
		"Int": lambda n: str(n),
		"Float": lambda n: f"{n / 7:.4f}",
		"Currency": lambda n: f"{n % 1000}.50",
		"Date": lambda n: f"2026-{n % 12 + 1:02}-{n % 28 + 1:02}",
		"Datetime": lambda n: f"2026-{n % 12 + 1:02}-{n % 28 + 1:02} 10:{n % 60:02}:00",
		"Check": lambda n: str(n % 2),
		"Select": lambda n: ("Open", "Closed", "Waiting")[n % 3],
		"Link": lambda n: ("Administrator", "Guest")[n % 2],
	}
	out = io.StringIO()
	writer = csv.writer(out, lineterminator="\n")
	spec = fields()
	writer.writerow([f["fieldname"] for f in spec])
	for n in range(rows):
		writer.writerow([values[f["fieldtype"]](n) for f in spec])
	return out.getvalue()


def spread(values: list[float]) -> str:
	return f"median {statistics.median(values):.3f} s (min {min(values):.3f}, max {max(values):.3f})"


def main() -> None:
	parser = argparse.ArgumentParser()
	parser.add_argument("--site", required=True)
	parser.add_argument("--repeat", type=int, default=5)
	parser.add_argument("--rows", type=int, default=10_000)
	args = parser.parse_args()

	import frappe

	frappe.init(site=args.site, sites_path=os.getcwd())
	frappe.connect()
	frappe.set_user("Administrator")
	from huf.ai.data_tables import api

	def clean() -> None:
		for name in frappe.get_all("Huf Data Table", filters={"table_name": ("like", f"{PREFIX}%")}, pluck="name"):
			api.delete_data_table(name)
		frappe.db.commit()

	clean()
	spec, csv_text = json.dumps(fields()), content(args.rows)
	creates, imports = [], []
	try:
		for i in range(args.repeat):
			name = f"{PREFIX} {i}"
			start = time.perf_counter()
			api.create_data_table(name, spec)
			frappe.db.commit()
			creates.append(time.perf_counter() - start)
			start = time.perf_counter()
			answer = api.import_csv(name, csv_text)
			frappe.db.commit()
			imports.append(time.perf_counter() - start)
			assert answer["imported"] == args.rows, {k: v for k, v in answer.items() if k != "errors"} | {"errors": answer["errors"][:3]}
			assert api.count_rows(name) == args.rows
			api.delete_data_table(name)
			frappe.db.commit()
	finally:
		frappe.db.rollback()
		clean()
	print(f"create a table with 20 fields (x{args.repeat}): {spread(creates)}")
	print(f"import {args.rows:,} CSV rows (x{args.repeat}): {spread(imports)}")
	rates = sorted(args.rows / t for t in imports)
	print(f"rows per second: median {statistics.median(rates):,.0f} (min {rates[0]:,.0f}, max {rates[-1]:,.0f})")
	frappe.destroy()


if __name__ == "__main__":
	main()
