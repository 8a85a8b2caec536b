"""Bias and variance of a classifier under 0-1 loss (Domingos 2000).

Train a learner on ``T`` training sets drawn from one population and predict the same
``n`` test cases each time: ``predictions[t, i]`` is the class that the model of
training set ``t`` gives case ``i``, whose true class is ``y_i``. Domingos's
decomposition of the expected 0-1 loss, with the noise taken as zero (the label of a
test case is its optimal prediction), is, for each case ``i``:

* **main prediction** ``ŷ_m(i)``: the most frequent of the ``T`` predictions (ties go to
  the class that sorts first among all classes seen);
* **bias** ``B(i) = 1[ŷ_m(i) ≠ y_i]``: the main prediction is wrong;
* **variance** ``V(i) = P_t(ŷ_t(i) ≠ ŷ_m(i))``: how often a model disagrees with the main
  prediction;
* the loss ``L(i) = P_t(ŷ_t(i) ≠ y_i) = B(i) + c(i) V(i)`` exactly, with ``c(i) = 1``
  where the case is unbiased and ``c(i) = -P_t(ŷ_t(i) = y_i | ŷ_t(i) ≠ ŷ_m(i))`` where it
  is biased (``-1`` with two classes): on a biased case, variance *helps*.

Averaged over the cases: ``loss = bias + net variance``, with the **unbiased variance**
``V_u = mean_i (1 - B(i)) V(i)``, the **biased variance** ``V_b = mean_i B(i) |c(i)| V(i)``
and the **net variance** ``V_u - V_b``. All are fractions of the test cases (rates in
[0, 1]); ``variance`` is the plain mean ``mean_i V(i)``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

__all__ = ["BiasVariance01", "bias_variance_01"]


@dataclass(frozen=True)
class BiasVariance01:
    """Domingos's 0-1 decomposition: per-case arrays and their means (rates).

    ``loss == bias + unbiased_variance - biased_variance`` (up to rounding)."""

    main_prediction: np.ndarray  #: ``ŷ_m(i)``, the most frequent prediction per case
    case_bias: np.ndarray        #: ``B(i)``, 0 or 1
    case_variance: np.ndarray    #: ``V(i)``, in [0, 1]
    case_loss: np.ndarray        #: ``L(i)``, the mean 0-1 loss over the training sets
    loss: float                  #: mean of ``L(i)``
    bias: float                  #: mean of ``B(i)``
    variance: float              #: mean of ``V(i)``
    unbiased_variance: float     #: ``V_u``
    biased_variance: float       #: ``V_b`` (with the weight ``|c(i)|``)

    @property
    def net_variance(self) -> float:
        """``V_u - V_b``: what variance adds to the loss, net."""
        return self.unbiased_variance - self.biased_variance

    def as_dict(self) -> dict:
        """The five rates and the net variance, for a table row."""
        return dict(loss=self.loss, bias=self.bias, variance=self.variance,
                    unbiased_variance=self.unbiased_variance,
                    biased_variance=self.biased_variance, net_variance=self.net_variance)


def bias_variance_01(predictions, y_true) -> BiasVariance01:
    """Domingos's (2000) bias–variance decomposition of the 0-1 loss (noise taken as 0).

    Parameters
    ----------
    predictions : array of shape (T, n) — row ``t`` holds the classes predicted for the
        ``n`` test cases by the model fitted on training set ``t`` (labels of any type
        that numpy can sort; ``T ≥ 1``).
    y_true : array of shape (n,) — the true classes of the test cases.

    Returns a :class:`BiasVariance01`; see the module docstring for the formulas.
    """
    P = np.asarray(predictions)
    y = np.asarray(y_true)
    if P.ndim != 2 or P.shape[0] < 1 or P.shape[1] < 1:
        raise ValueError("predictions must be a 2-d array (training sets × test cases) with "
                         f"at least one of each; got shape {P.shape}")
    if y.ndim != 1 or y.shape[0] != P.shape[1]:
        raise ValueError(f"y_true must have one label per test case ({P.shape[1]}); "
                         f"got shape {y.shape}")
    classes, codes = np.unique(np.concatenate([P.ravel(), y]), return_inverse=True)
    T, n = P.shape
    pred = codes[:T * n].reshape(T, n)
    truth = codes[T * n:]
    # votes[k, i]: how many of the T models predict class k for case i
    votes = np.zeros((classes.size, n))
    np.add.at(votes, (pred, np.broadcast_to(np.arange(n), pred.shape)), 1)
    main = np.argmax(votes, axis=0)  # ties: the first class in sorted order
    cases = np.arange(n)
    biased = main != truth
    variance = 1.0 - votes[main, cases] / T
    loss = 1.0 - votes[truth, cases] / T
    # on a biased case, the share of the disagreeing models that are right
    disagree = T - votes[main, cases]
    right_when_off = np.divide(votes[truth, cases], disagree, out=np.zeros(n),
                               where=disagree > 0)
    return BiasVariance01(
        main_prediction=classes[main], case_bias=biased.astype(float),
        case_variance=variance, case_loss=loss, loss=float(loss.mean()),
        bias=float(biased.mean()), variance=float(variance.mean()),
        unbiased_variance=float(np.mean(np.where(biased, 0.0, variance))),
        biased_variance=float(np.mean(np.where(biased, right_when_off * variance, 0.0))))
