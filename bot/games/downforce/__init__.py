"""Downforce: car auctions, a race on a track graph, secret bets, scoring (no Discord here).

Our own edition of the components lives in ``assets/downforce/``.
"""
