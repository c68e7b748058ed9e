"""Tests of the worked examples in examples/."""
