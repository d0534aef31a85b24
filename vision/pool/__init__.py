"""Reading the Pool Party pool: where the pool lies in the frame (:mod:`.view`), what each
square and bar-tray slot holds (:mod:`.cells`), and the reading as the engine's
observation format (:mod:`.reader`).

The board's geometry always comes from the caller as plain data (``Board.to_json()``);
tiles are recognised from a taught set (:mod:`vision.taught`).
"""
