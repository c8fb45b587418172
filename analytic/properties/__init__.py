"""The property engine: properties as objects, a search over a wide space, proofs."""
