# partykit::ctree on the oracle data sets, for tests/oracles/test_partykit.py. Usage:
#   Rscript partykit_ctree.R datadir jobs.csv outdir
# jobs.csv: one row per tree (id, data, type class|regression, testtype Bonferroni|Univariate,
# mincriterion, minsplit, minbucket, maxsurrogate, weights none|cyclic), always
# majority = TRUE (the deterministic rule for missing values). Data "stagec_ordered" is
# stagec with grade and gleason as ordered factors; "esoph" takes its level order from
# esoph_levels.csv; weights "cyclic" are 1, 2, 3, 1, 2, 3, ... Writes per job:
# nodes_<id>.csv (node, weight, rows, variable, breaks (17 digits), the levels sent left,
# p.value), crit_<id>.csv (node, variable, statistic, p.value at every tested node) and
# pred_<id>.csv (node of each training row, and of each row of new_<data>.csv).
invisible(Sys.setlocale("LC_COLLATE", "C"))
suppressMessages(library(partykit))
args <- commandArgs(TRUE)
datadir <- args[1]; jobs <- read.csv(args[2], stringsAsFactors = FALSE); out <- args[3]
prep <- function(d, name) {
  if (name == "stagec_ordered") {
    d$grade <- factor(d$grade, levels = 1:4, ordered = TRUE)
    d$gleason <- factor(d$gleason, levels = 3:10, ordered = TRUE)
  }
  if (name == "esoph") {
    lv <- read.csv(file.path(datadir, "esoph_levels.csv"), stringsAsFactors = FALSE)
    for (v in unique(lv$variable))
      d[[v]] <- factor(d[[v]], levels = lv$level[lv$variable == v], ordered = TRUE)
  }
  for (v in names(d)) if (is.character(d[[v]])) d[[v]] <- factor(d[[v]])
  d
}
options(na.action = "na.pass")  # predict every new row, those with NA too
for (i in seq_len(nrow(jobs))) {
  job <- jobs[i, ]
  file <- if (job$data == "stagec_ordered") "stagec" else job$data
  d <- prep(read.csv(file.path(datadir, paste0(file, ".csv")), stringsAsFactors = FALSE), job$data)
  new <- read.csv(file.path(out, paste0("new_", job$data, ".csv")), stringsAsFactors = FALSE,
                  na.strings = c("NA", ""))
  for (v in names(d)) if (is.factor(d[[v]]))
    new[[v]] <- factor(new[[v]], levels = levels(d[[v]]), ordered = is.ordered(d[[v]]))
  y <- names(d)[ncol(d)]
  if (job$type == "class") d[[y]] <- factor(d[[y]])
  w <- if (job$weights == "cyclic") (seq_len(nrow(d)) - 1) %% 3 + 1 else NULL
  ctl <- ctree_control(testtype = job$testtype, mincriterion = job$mincriterion,
                       minsplit = job$minsplit, minbucket = job$minbucket,
                       maxsurrogate = job$maxsurrogate, majority = TRUE)
  f <- as.formula(paste(y, "~ ."))
  ct <- if (is.null(w)) ctree(f, data = d, control = ctl) else
    ctree(f, data = d, weights = w, control = ctl)
  ww <- if (is.null(w)) rep(1, nrow(d)) else w
  ids <- nodeids(ct)
  nodes <- list(); crit <- list()
  for (id in ids) {
    n <- node_party(ct[[id]])
    rows <- as.integer(rownames(data_party(ct, id)))
    sp <- split_node(n)
    var <- ""; brk <- ""; left <- ""
    if (!is.null(sp)) {
      var <- names(ct$data)[sp$varid]
      x <- ct$data[[var]]
      if (is.numeric(x)) brk <- sprintf("%.17g", sp$breaks)
      else if (is.ordered(x)) left <- paste(levels(x)[seq_len(sp$breaks)], collapse = ";")
      else left <- paste(levels(x)[!is.na(sp$index) & sp$index == 1], collapse = ";")
    }
    inf <- info_node(n)
    pv <- if (!is.null(inf$p.value)) sprintf("%.17g", inf$p.value) else ""
    nodes[[length(nodes) + 1]] <- data.frame(node = id, weight = sum(ww[rows]),
      rows = length(rows), variable = var, breaks = brk, left = left, p.value = pv)
    if (!is.null(inf$criterion)) {
      cr <- inf$criterion
      crit[[length(crit) + 1]] <- data.frame(node = id, variable = colnames(cr),
        statistic = sprintf("%.17g", cr["statistic", ]), p.value = sprintf("%.17g", cr["p.value", ]))
    }
  }
  write.csv(do.call(rbind, nodes), file.path(out, paste0("nodes_", job$id, ".csv")), row.names = FALSE)
  cr <- if (length(crit)) do.call(rbind, crit) else data.frame(node = integer(0), variable = character(0), statistic = numeric(0), p.value = numeric(0))
  write.csv(cr, file.path(out, paste0("crit_", job$id, ".csv")), row.names = FALSE)
  write.csv(data.frame(train = predict(ct, type = "node"),
                       new = c(predict(ct, newdata = new, type = "node"))),
            file.path(out, paste0("pred_", job$id, ".csv")), row.names = FALSE)
}
