"""The designer's bench: balance and strategy figures of many simulated games, and grids of compositions."""
