"""Dice Companion's pure core: dice and faces, game rules, game records, the referee.

Nothing here imports the camera, the GPIO pins or the screen; it runs anywhere.
"""

__version__ = "0.1.0"
