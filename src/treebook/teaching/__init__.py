"""Readable cores shown in the chapters (the definitions the fast code is tested against)."""
