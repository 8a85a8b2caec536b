"""Pruning (剪枝): simplifying a grown tree so that it generalises.

Submodules, one per method:

* :mod:`treebook.prune.reduced_error` — reduced-error pruning, REP (Quinlan 1987), on a
  separate pruning set;
* :mod:`treebook.prune.pessimistic` — pessimistic error pruning, PEP (Quinlan 1987);
* :mod:`treebook.prune.error_based` — C4.5's error-based pruning with a confidence factor;
* :mod:`treebook.prune.minimum_error` — minimum-error pruning, MEP (Niblett and Bratko
  1986; the m-estimate of Cestnik and Bratko 1991);
* :mod:`treebook.prune.critical_value` — critical-value pruning, CVP (Mingers 1987), and
  the pre-pruning stop rule it mirrors;
* :mod:`treebook.prune.cost_complexity` — CART's weakest-link cost-complexity pruning and
  the choice of α by cross-validation;
* :mod:`treebook.prune.rpart` — rpart's complexity table (``printcp``), with its
  cross-validated error on given folds;
* :mod:`treebook.prune.optimal` — the optimally pruned subtree on test data (a yardstick,
  not a method) and the distance of a pruned tree to it;
* :mod:`treebook.prune.sequence` — the sequence of trees along a strength parameter and
  its selection on a pruning set.

Every method takes a :class:`treebook.core.tree.Tree` from any learner and returns a new,
smaller one: ``prune_<method>(tree, ...) -> Tree``; methods with a strength parameter also
have ``<method>_path(tree, ...)``.
"""

from .error_based import prune_error_based
from .pessimistic import prune_pessimistic
from .cost_complexity import cost_complexity_path, prune_ccp, select_alpha_cv
from .rpart import cp_table
from .reduced_error import prune_reduced_error, pruning_set_errors
from .sequence import PrunedSequence, ccp_sequence
from .minimum_error import minimum_error_path, prune_minimum_error
from .critical_value import critical_value_path, pre_prune, pre_prune_path, prune_critical_value
from .optimal import distance_to_optimal, kept_nodes, prune_optimal
