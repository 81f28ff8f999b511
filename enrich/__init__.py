"""enrich stage."""
