"""The live referee's game side: what the table's inputs mean for a game in progress.

``companion.referee`` owns the loop, the store and the published state; this package
holds the per-game logic it delegates to (today Crocodile and Recall, in :mod:`.cabo`).
"""
