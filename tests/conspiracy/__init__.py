"""Tests of the Conspiracy rules engine (rules ``shared/rules/conspiracy.md``)."""
