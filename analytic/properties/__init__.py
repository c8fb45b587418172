"""The property engine: certificates of signs, zeros and definedness (:mod:`.certificates`)."""
