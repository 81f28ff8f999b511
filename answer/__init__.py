"""answer stage: grounded answers with citations from retrieved chunks."""
