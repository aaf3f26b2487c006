"""Helpers shared by the tests: fakes that speak real wire protocols."""
