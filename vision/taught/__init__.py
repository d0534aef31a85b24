"""Teach-once recognition (VISION-NOTES 4.7): pieces whose artwork the project does not
have (the Pool Party tiles, Master Crok cards) are shown to the camera once, and what was
seen is stored and recognised from then on.

:mod:`.store` (the files under ``<data>/taught/``), :mod:`.features` (what is compared),
:mod:`.tiles` (tile faces), :mod:`.cards` (taught cards on the mat), :mod:`.teach` (the
teaching steps, without any user interface) and :mod:`.defaults` (the renderer's tile set,
taught the same way).
"""
