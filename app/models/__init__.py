"""Model preparation: turn the installed model packages into files the stages load."""
