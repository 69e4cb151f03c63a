"""Shared test set-up. Domain-specific fixtures live in each test folder's own conftest."""

pytest_plugins = ["tests.plugins.scripted_api"]
