"""Runners over the contract: playing games, simulation in parallel, benchmarks."""
