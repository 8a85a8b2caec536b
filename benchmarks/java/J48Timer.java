// Times Weka's J48 building its classifier, in one warm JVM: for each job, `warmup` builds
// (the JIT compiles J48's loops), then `repeats` timed builds; prints the best and the
// median time and the tree's size, so the caller can check it timed the tree it compares.
//
// Usage: java -cp weka.jar:DIR J48Timer JOBS   where each line of JOBS is
//        <name> TAB <arff path> TAB <J48 options> TAB <warmup> TAB <repeats>
// Output, one line per job:
//        TIME TAB name TAB best_seconds TAB median_seconds TAB size TAB leaves,
//        then the tree as J48 prints it and a line "END" (the caller counts the leaves that
//        hold training cases: J48 keeps an empty leaf for each category absent at a node)
// Reading the ARFF file is not timed (treebook's side does not time reading either).
import java.io.BufferedReader;
import java.io.FileReader;
import java.util.Arrays;
import weka.classifiers.trees.J48;
import weka.core.Instances;
import weka.core.Utils;
import weka.core.converters.ConverterUtils.DataSource;

public class J48Timer {
    public static void main(String[] args) throws Exception {
        BufferedReader jobs = new BufferedReader(new FileReader(args[0]));
        String line;
        while ((line = jobs.readLine()) != null) {
            if (line.trim().isEmpty()) continue;
            String[] p = line.split("\t", -1);
            Instances data = DataSource.read(p[1]);
            data.setClassIndex(data.numAttributes() - 1);
            int warmup = Integer.parseInt(p[3]), repeats = Integer.parseInt(p[4]);
            J48 tree = null;
            for (int i = 0; i < warmup; i++) tree = build(data, p[2]);
            double[] times = new double[repeats];
            for (int i = 0; i < repeats; i++) {
                long t = System.nanoTime();
                tree = build(data, p[2]);
                times[i] = (System.nanoTime() - t) / 1e9;
            }
            Arrays.sort(times);
            double median = repeats % 2 == 1 ? times[repeats / 2]
                    : 0.5 * (times[repeats / 2 - 1] + times[repeats / 2]);
            System.out.println("TIME\t" + p[0] + "\t" + times[0] + "\t" + median + "\t"
                    + (int) tree.measureTreeSize() + "\t" + (int) tree.measureNumLeaves());
            System.out.println(tree.toString());
            System.out.println("END");
        }
    }

    static J48 build(Instances data, String options) throws Exception {
        J48 tree = new J48();
        tree.setOptions(Utils.splitOptions(options));
        // a copy, as J48's users hand it their data: buildClassifier may reorder instances
        tree.buildClassifier(new Instances(data));
        return tree;
    }
}
