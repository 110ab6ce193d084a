"""A running game in a channel (a *table*): the engine, its seats, its lock, deadlines and messages.

Cogs create and find tables; tables drive the engine and talk to Discord through a game's presenter.
"""
