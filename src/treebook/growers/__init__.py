"""Growers: the algorithms that build a :class:`~treebook.tree.Tree` from encoded data."""
