"""gather stage."""
