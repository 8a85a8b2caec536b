"""Pruning (剪枝): simplifying a grown tree so that it generalises.

Submodules, one per method:

* :mod:`treebook.prune.pessimistic` — pessimistic error pruning, PEP (Quinlan 1987);
* :mod:`treebook.prune.error_based` — C4.5's error-based pruning with a confidence factor;
* :mod:`treebook.prune.cost_complexity` — CART's weakest-link cost-complexity pruning and
  the choice of α by cross-validation;
* :mod:`treebook.prune.rpart` — rpart's complexity table (``printcp``), with its
  cross-validated error on given folds.

Every method takes a :class:`treebook.tree.Tree` and returns a new, smaller one.
"""

from .error_based import prune_error_based
from .pessimistic import prune_pessimistic
from .cost_complexity import cost_complexity_path, prune_ccp, select_alpha_cv
from .rpart import cp_table
