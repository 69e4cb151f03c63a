"""The agent's settings: the trusted values (`agent`), the one validation from loose JSON and
environment variables to them (`parse`), and the user's permission rules (`permission_rules`)."""
