# rpart's cptable for a CSV whose last column is the response (a factor: method "class";
# numbers with --anova: method "anova"), grown as treebook's CART grows (cp = 0, minsplit
# 2, minbucket 1, no competitors or surrogates), cross-validated on the given fold ids.
args <- commandArgs(TRUE)
library(rpart)
d <- read.csv(args[1], stringsAsFactors = TRUE)
fo <- read.csv(args[2])$f
method <- if (length(args) > 3 && args[4] == "--anova") "anova" else "class"
y <- names(d)[ncol(d)]
if (method == "class") d[[y]] <- factor(d[[y]])
f <- rpart(as.formula(paste0("`", y, "` ~ .")), data = d, method = method,
           control = rpart.control(cp = 0, minsplit = 2, minbucket = 1, maxcompete = 0,
                                   maxsurrogate = 0, xval = fo))
write.csv(f$cptable, args[3], row.names = FALSE)
