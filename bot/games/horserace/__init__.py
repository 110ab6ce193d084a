"""The Horse Race Game: 11 horses (2 to 12), two dice, scratches with multipliers, a jackpot.

Modules: ``board`` (layouts as data), ``deck`` (cards and dealing), ``scratch`` (slots and
surrender), ``race`` (the horses on the track, one roll at a time), ``jackpot`` (the money),
``settings``, ``game`` (the engine), ``narration``, ``ai``, ``render``, ``sim``.
"""
