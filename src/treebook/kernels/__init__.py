"""The compiled inner loops (numba): every ``@njit`` function of the package lives here.

Kernels import numba and numpy only, so they sit below everything else: ``cart`` (the
exact CART scan, partition and walks), ``c45``, ``multiway`` (contingency tables),
``sparse`` and ``hist``. Constants the loops compile in are defined here, once, and the
rest of the package imports them from here.
"""

#: scikit-learn's ``FEATURE_THRESHOLD``: two sorted values closer than this are treated as
#: equal, so no cut is placed between them
FEATURE_THRESHOLD = 1e-7
