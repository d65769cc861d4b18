"""The judge: runs a topic's hidden suite (pytest) against a submission's code, loaded in a sandboxed worker."""
