"""embed stage."""
