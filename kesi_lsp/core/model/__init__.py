"""The model client seam: the only door to the Anthropic Messages API."""
