"""Tournaments on a host: pairing and standings (pure), their store, the operator's command."""
