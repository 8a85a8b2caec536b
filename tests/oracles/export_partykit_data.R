# Writes R's own data sets for the partykit (ctree) oracle to CSV, once:
#   Rscript tests/oracles/export_partykit_data.R tests/oracles/data
# iris and esoph ship with R (package datasets), GlaucomaM with TH.data; stagec and
# airquality are already there (export_rpart_data.R). Changes: none to the values; esoph's response ncases
# is written last (the response column of every file here), its
# ordered factors are written as their labels, and their level order to
# esoph_levels.csv (variable, level, rank), which the test reads back.
args <- commandArgs(TRUE)
out <- if (length(args)) args[1] else "."
write.csv(iris, file.path(out, "iris.csv"), row.names = FALSE)
data(GlaucomaM, package = "TH.data")
write.csv(GlaucomaM, file.path(out, "glaucomam.csv"), row.names = FALSE)
write.csv(esoph[, c("agegp", "alcgp", "tobgp", "ncontrols", "ncases")],
          file.path(out, "esoph.csv"), row.names = FALSE)
lv <- do.call(rbind, lapply(c("agegp", "alcgp", "tobgp"), function(v)
  data.frame(variable = v, level = levels(esoph[[v]]), rank = seq_along(levels(esoph[[v]])))))
write.csv(lv, file.path(out, "esoph_levels.csv"), row.names = FALSE)
