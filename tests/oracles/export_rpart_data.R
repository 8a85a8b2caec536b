# Writes R's own data sets with missing values (and categorical columns) to CSV, once:
#   Rscript tests/oracles/export_rpart_data.R tests/oracles/data
# stagec, cu.summary and car90 ship with rpart; airquality with R (package datasets).
# Changes: the response's missing rows are dropped (rpart drops them too); stagec's
# pgstat becomes the class progstat (No/Prog) as in the rpart vignette, without pgtime;
# car90 without Rim, Tires and Model2 (as the vignette), and its empty-string levels of
# Trans1/Trans2 written as "none" (a CSV reader would take "" for a missing value).
args <- commandArgs(TRUE)
out <- if (length(args)) args[1] else "."
library(rpart)
st <- stagec
st$progstat <- factor(st$pgstat, levels = 0:1, labels = c("No", "Prog"))
st <- st[, c("age", "eet", "g2", "grade", "gleason", "ploidy", "progstat")]
write.csv(st, file.path(out, "stagec.csv"), row.names = FALSE)
cu <- cu.summary[!is.na(cu.summary$Reliability), ]
cu$Reliability <- factor(as.character(cu$Reliability))
write.csv(cu[, c("Price", "Country", "Mileage", "Type", "Reliability")],
          file.path(out, "cu_summary.csv"), row.names = FALSE)
cars <- car90[, -match(c("Rim", "Tires", "Model2"), names(car90))]
for (v in c("Trans1", "Trans2")) {
  x <- as.character(cars[[v]]); x[!is.na(x) & x == ""] <- "none"; cars[[v]] <- x
}
cars <- cars[!is.na(cars$Price), c(setdiff(names(cars), "Price"), "Price")]
write.csv(cars, file.path(out, "car90.csv"), row.names = FALSE)
aq <- airquality[!is.na(airquality$Ozone), c("Solar.R", "Wind", "Temp", "Month", "Day", "Ozone")]
write.csv(aq, file.path(out, "airquality.csv"), row.names = FALSE)
