"""The three cost tiers."""

import pytest

from huf.ai.engine.cost import Prices, compute_cost
from huf.ai.engine.events import Usage
from huf.ai.engine.litellm_import import load_litellm


def test_custom_prices_bill_cached_input_at_its_own_price():
	usage = Usage(input_tokens=1_000_000, output_tokens=500_000, cached_tokens=400_000)
	assert compute_cost("x", usage, Prices(2.0, 8.0, 0.5)) == pytest.approx(0.6 * 2 + 0.4 * 0.5 + 0.5 * 8)
	assert compute_cost("x", usage, Prices(2.0, 8.0)) == pytest.approx(1 * 2 + 0.5 * 8)  # no cached price


def test_custom_prices_round_to_eight_decimals():
	assert compute_cost("x", Usage(1, 1), Prices(0.123456789, 0.0)) == 1.2e-07


def test_zero_custom_prices_make_a_model_free_even_if_litellm_knows_it():
	assert compute_cost("openai/gpt-4o-mini", Usage(1000, 1000), Prices(0.0, 0.0)) == 0.0


def test_litellm_table_is_used_without_custom_prices():
	usage = Usage(10_000, 2_000)
	prompt, completion = load_litellm().cost_per_token(model="openai/gpt-4o-mini", prompt_tokens=10_000, completion_tokens=2_000)
	assert prompt > 0 and completion > 0
	assert compute_cost("openai/gpt-4o-mini", usage, None) == pytest.approx(prompt + completion)
	assert compute_cost("openai/gpt-4o-mini", usage, Prices(None, 3.0)) == pytest.approx(prompt + completion)  # half-set


def test_litellm_table_bills_cached_tokens_cheaper():
	plain = compute_cost("openai/gpt-4o-mini", Usage(10_000, 2_000), None)
	cached = compute_cost("openai/gpt-4o-mini", Usage(10_000, 2_000, 8_000), None)
	prompt, completion = load_litellm().cost_per_token(
		model="openai/gpt-4o-mini", prompt_tokens=10_000, completion_tokens=2_000, cache_read_input_tokens=8_000
	)
	assert cached == pytest.approx(prompt + completion) and 0 < cached < plain


def test_unknown_models_cost_nothing_and_never_raise():
	assert compute_cost("openai/no-such-model-anywhere", Usage(1000, 1000), None) == 0.0
	assert compute_cost("", Usage(1000, 1000), None) == 0.0
