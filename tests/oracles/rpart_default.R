# rpart's default tree (rpart.control() but xval = 0) for a CSV whose last column is the
# class: writes, per node in rpart's order, n and dev (the node's risk), then the fitted
# class probabilities of every training case.
args <- commandArgs(TRUE)
library(rpart)
d <- read.csv(args[1], stringsAsFactors = TRUE)
y <- names(d)[ncol(d)]
d[[y]] <- factor(d[[y]])
f <- rpart(as.formula(paste0("`", y, "` ~ .")), data = d, method = "class",
           control = rpart.control(xval = 0))
write.csv(data.frame(leaf = f$frame$var == "<leaf>", n = f$frame$n, dev = f$frame$dev),
          args[2], row.names = FALSE)
p <- predict(f, d, type = "prob")
write.csv(p, args[3], row.names = FALSE)
