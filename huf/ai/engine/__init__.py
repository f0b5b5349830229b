"""Huf's Frappe-free engine: plain data in, plain data and events out.

Nothing under this package may import Frappe (checked by tests/engine/house/test_shape.py).
"""
