# rpart on a CSV whose last column is the response, with surrogate splits; for the oracle
# tests of treebook's missing="surrogate". Usage:
#   Rscript rpart_surrogate.R data.csv class|anova grow|default folds.csv new.csv outdir
#           [minsplit minbucket [maxsurrogate]]
# grow:    cp = 0, minsplit = 2, minbucket = 1 (or as given), maxcompete = 0, maxsurrogate = 5
#          (or as given),
#          usesurrogate = 2, cross-validated on the fold ids (for the cp table);
# default: rpart.control() with xval = 0.
# Writes frame.csv (per node: number, var, n, dev, yval), splits.csv (per split: node,
# var, primary or surrogate, agree (improve of a surrogate), adj, ncat, index (the cut
# point, 17 digits), the two sons' n and, for a categorical split, the levels sent left
# and right), cptable.csv and the
# predictions on the training rows (pred_train.csv) and on new.csv (pred_new.csv).
invisible(Sys.setlocale("LC_COLLATE", "C"))
args <- commandArgs(TRUE)
library(rpart)
d <- read.csv(args[1], stringsAsFactors = TRUE)
method <- args[2]
y <- names(d)[ncol(d)]
if (method == "class") d[[y]] <- factor(d[[y]])
if (args[3] == "grow") {
  fo <- read.csv(args[4])$f
  minsplit <- if (length(args) > 6) as.integer(args[7]) else 2L
  minbucket <- if (length(args) > 7) as.integer(args[8]) else 1L
  maxsur <- if (length(args) > 8) as.integer(args[9]) else 5L
  ctl <- rpart.control(cp = 0, minsplit = minsplit, minbucket = minbucket, maxcompete = 0,
                       maxsurrogate = maxsur, usesurrogate = 2, xval = fo)
} else {
  ctl <- rpart.control(xval = 0)
}
f <- rpart(as.formula(paste0("`", y, "` ~ .")), data = d, method = method, control = ctl)
out <- args[6]
fr <- f$frame
write.csv(data.frame(node = as.integer(rownames(fr)), var = as.character(fr$var), n = fr$n,
                     dev = fr$dev, yval = fr$yval), file.path(out, "frame.csv"),
          row.names = FALSE)
internal <- as.integer(rownames(fr))[fr$var != "<leaf>"]
if (!is.null(f$splits)) {
  sp <- f$splits
  nc <- fr$ncompete[fr$var != "<leaf>"]
  ns <- fr$nsurrogate[fr$var != "<leaf>"]
  per <- 1 + nc + ns
  kind <- unlist(lapply(seq_along(per), function(i)
    c("primary", rep("competitor", nc[i]), rep("surrogate", ns[i]))))
  # the primary's cut point and directions: ncat -1 sends x < index to the left son
  # (node 2k), +1 to the right son; a categorical split's csplit row says per level
  # 1 (left), 3 (right) or 2 (no case of that level at the node)
  nodes <- rep(internal, per)
  n_of <- function(k) fr$n[match(k, as.integer(rownames(fr)))]
  lev_side <- function(i, side) {
    if (sp[i, "ncat"] < 2) return("")
    v <- rownames(sp)[i]
    paste(attr(f, "xlevels")[[v]][f$csplit[sp[i, "index"], ] == side], collapse = "|")
  }
  write.csv(data.frame(node = nodes, var = rownames(sp), kind = kind,
                       agree = sp[, "improve"], adj = sp[, "adj"],
                       ncat = sp[, "ncat"], index = sprintf("%.17g", sp[, "index"]),
                       n_left = n_of(2L * nodes), n_right = n_of(2L * nodes + 1L),
                       levels_left = sapply(seq_len(nrow(sp)), lev_side, side = 1L),
                       levels_right = sapply(seq_len(nrow(sp)), lev_side, side = 3L)),
            file.path(out, "splits.csv"), row.names = FALSE)
} else {
  write.csv(data.frame(node = integer(), var = character(), kind = character(),
                       agree = numeric(), adj = numeric()),
            file.path(out, "splits.csv"), row.names = FALSE)
}
if (!is.null(f$cptable)) write.csv(f$cptable, file.path(out, "cptable.csv"), row.names = FALSE)
new <- read.csv(args[5], stringsAsFactors = FALSE)
for (v in names(d)) if (is.factor(d[[v]]) && v %in% names(new))
  new[[v]] <- factor(new[[v]], levels = levels(d[[v]]))
type <- if (method == "class") "prob" else "vector"
write.csv(predict(f, d, type = type), file.path(out, "pred_train.csv"), row.names = FALSE)
write.csv(predict(f, new, type = type), file.path(out, "pred_new.csv"), row.names = FALSE)
