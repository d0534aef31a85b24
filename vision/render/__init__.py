"""The scene renderer: photo-like overhead frames of a mat with cards, with the ground
truth of every card. Deterministic from a seed; drawn by the project's own code."""
