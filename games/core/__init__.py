"""The engine core: specs, the state protocol, bots, match records, the runner and replay."""
