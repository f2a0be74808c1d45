"""Command-line interfaces: play, explain, replay, bench."""
