"""Where a game is shown: a channel or a thread and the players' DMs, paced under Discord's limits.

Nothing here knows a game: ``place.Place`` sends, edits and DMs what it is handed (``outgoing``),
``pacer`` and ``global_pacer`` keep each channel and the whole bot under Discord's rate limits,
``outbox`` merges race pictures a busy bot cannot show in time, ``delivery`` retries with nonces,
``later`` adds a picture drawn afterwards to a message already out, ``threads`` starts a game's thread.
"""
