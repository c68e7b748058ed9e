"""Every scenario of the seed feature file has a test named after it."""

from __future__ import annotations

import re
from pathlib import Path

from tests.acceptance import test_context_tiers_feature, test_scoped_view_feature

FEATURE = Path(__file__).with_name("scoped_view.feature")


def _snake(title: str) -> str:
    return re.sub(r"[^a-z0-9]+", "_", title.lower()).strip("_")


def _scenarios() -> list[tuple[str, str]]:
    """(title, body) of every scenario in the feature file."""
    text = FEATURE.read_text(encoding="utf-8")
    parts = re.split(r"^\s*Scenario: (.+)$", text, flags=re.MULTILINE)
    return [(title.strip(), body) for title, body in zip(parts[1::2], parts[2::2], strict=True)]


def test_every_non_tier_scenario_has_a_named_test() -> None:
    scenarios = _scenarios()
    assert len(scenarios) == 74
    tests = {name for name in dir(test_scoped_view_feature) if name.startswith("test_")}
    covered = [t for t, body in scenarios if "Given sv a ContextTierService" not in body]
    missing = [t for t in covered if f"test_{_snake(t)}" not in tests]
    assert not missing, f"scenarios without a test: {missing}"
    assert len(covered) == 56


def test_every_tier_scenario_has_a_named_test() -> None:
    tests = {name for name in dir(test_context_tiers_feature) if name.startswith("test_")}
    tiers = [t for t, body in _scenarios() if "Given sv a ContextTierService" in body]
    missing = [t for t in tiers if f"test_{_snake(t)}" not in tests]
    assert not missing, f"tier scenarios without a test: {missing}"
    assert len(tiers) == 18
