"""treebook: decision trees (ID3, C4.5, CART, CLS) derived, implemented and tested.

The learners and the measures readers call most are re-exported here.
"""

from ._version import __version__
from .core.impurity import (
    conditional_entropy,
    entropy,
    gain_ratio,
    gini,
    gini_gain,
    gini_index,
    information_gain,
    misclassification_error,
    split_information,
    variance,
)
from .core.tree import Tree
from .id3 import ID3Classifier
from .c45 import C45Classifier
from .cls import CLSClassifier
from .cart import CARTClassifier, CARTRegressor
from .optimal import OptimalTreeClassifier
from .ctree import ConditionalTreeClassifier, ConditionalTreeRegressor

__all__ = [
    "ID3Classifier", "C45Classifier", "CARTClassifier", "CARTRegressor", "CLSClassifier",
    "OptimalTreeClassifier",
    "ConditionalTreeClassifier", "ConditionalTreeRegressor",
    "Tree", "entropy", "conditional_entropy", "information_gain", "split_information",
    "gain_ratio", "gini", "gini_index", "gini_gain", "misclassification_error", "variance",
]
