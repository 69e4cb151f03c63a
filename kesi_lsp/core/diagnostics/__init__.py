"""The editor's diagnostics: the seam they arrive through (`editor`) and the watch that tells
the model what a change newly broke (`watch`), design §2.10."""
