# rpart's summary() of the root of the Stage C tree (rpart's vignette example), recorded
# for chapter 4: the surrogate splits and their agreement as rpart prints them.
#   Rscript benchmarks/experiments/rpart_stagec_surrogates.R > benchmarks/experiments/rpart_stagec_surrogates.txt
library(rpart)
d <- read.csv("tests/oracles/data/stagec.csv", stringsAsFactors = TRUE)
f <- rpart(progstat ~ ., data = d, method = "class", control = rpart.control(xval = 0))
cat("# rpart", as.character(packageVersion("rpart")), "\n")
out <- capture.output(summary(f))
start <- grep("^Node number 1:", out)
cat(out[start:(start + 17)], sep = "\n")
