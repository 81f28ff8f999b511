"""chunk stage."""
