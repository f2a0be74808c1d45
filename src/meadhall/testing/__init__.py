"""Support for testing games: the conformance suite."""
