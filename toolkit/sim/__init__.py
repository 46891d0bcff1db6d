"""Monte Carlo simulation over the rules engines: seeded runs, named policies, statistics."""
