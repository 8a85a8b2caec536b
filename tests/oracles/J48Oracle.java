// Runs Weka's J48 for a list of jobs in one JVM and prints, per job, the tree's size, its
// leaves and the exact class distribution J48 gives every training case.
//
// Usage: java -cp weka.jar:DIR J48Oracle JOBS   where each line of JOBS is
//        <arff path> TAB <J48 options, space-separated> [TAB HOLDOUT: train on the cases
//        whose index is not a multiple of 3, print the distributions of the others], or
//        <arff path> TAB DUMP to print
//        the data as Weka reads it ("ATTR" TAB name TAB nominal|numeric [TAB values...],
//        then one "ROW" line per case, tab-separated, "?" for a missing value), so that
//        treebook reads exactly the values J48 sees.
// Output, per job: "JOB <n>", "SIZE <size>", "LEAVES <n leaves>", "CLASSES <c1> <c2> ...",
// one "DIST <p1> <p2> ..." line per case (Double.toString: exact), "TREE" and the tree as
// J48 prints it, then "END".
import java.io.BufferedReader;
import java.io.FileReader;
import weka.classifiers.trees.J48;
import weka.core.Instances;
import weka.core.Utils;
import weka.core.converters.ConverterUtils.DataSource;

public class J48Oracle {
    public static void main(String[] args) throws Exception {
        BufferedReader jobs = new BufferedReader(new FileReader(args[0]));
        String line;
        int n = 0;
        while ((line = jobs.readLine()) != null) {
            if (line.trim().isEmpty()) continue;
            String[] parts = line.split("\t", -1);
            Instances data = DataSource.read(parts[0]);
            data.setClassIndex(data.numAttributes() - 1);
            if (parts.length > 1 && parts[1].equals("DUMP")) {
                dump(data);
                continue;
            }
            // HOLDOUT: train on the cases whose index is not a multiple of 3, print the
            // distributions of the others (cases J48 has not seen: unseen categories at a
            // node, unknown values routed down a tree not grown on them)
            boolean holdout = parts.length > 2 && parts[2].equals("HOLDOUT");
            Instances train = data, test = data;
            if (holdout) {
                train = new Instances(data, 0);
                test = new Instances(data, 0);
                for (int i = 0; i < data.numInstances(); i++)
                    (i % 3 == 0 ? test : train).add(data.instance(i));
            }
            J48 tree = new J48();
            tree.setOptions(Utils.splitOptions(parts.length > 1 ? parts[1] : ""));
            tree.buildClassifier(train);
            System.out.println("JOB " + n++);
            System.out.println("SIZE " + (int) tree.measureTreeSize());
            System.out.println("LEAVES " + (int) tree.measureNumLeaves());
            StringBuilder classes = new StringBuilder("CLASSES");
            for (int k = 0; k < data.numClasses(); k++)
                classes.append('\t').append(data.classAttribute().value(k));
            System.out.println(classes);
            for (int i = 0; i < test.numInstances(); i++) {
                double[] p = tree.distributionForInstance(test.instance(i));
                StringBuilder row = new StringBuilder("DIST");
                for (double v : p) row.append(' ').append(Double.toString(v));
                System.out.println(row);
            }
            System.out.println("TREE");
            System.out.println(tree.toString());
            System.out.println("END");
        }
    }

    static void dump(Instances data) {
        System.out.println("JOB DUMP");
        for (int a = 0; a < data.numAttributes(); a++) {
            weka.core.Attribute att = data.attribute(a);
            StringBuilder line = new StringBuilder("ATTR\t" + att.name());
            if (att.isNominal()) {
                line.append("\tnominal");
                for (int v = 0; v < att.numValues(); v++) line.append('\t').append(att.value(v));
            } else if (att.isNumeric()) {
                line.append("\tnumeric");
            } else {
                throw new IllegalArgumentException("attribute " + att.name() + " is neither nominal nor numeric");
            }
            System.out.println(line);
        }
        for (int i = 0; i < data.numInstances(); i++) {
            StringBuilder row = new StringBuilder("ROW");
            for (int a = 0; a < data.numAttributes(); a++) {
                row.append('\t');
                if (data.instance(i).isMissing(a)) row.append('?');
                else if (data.attribute(a).isNominal()) row.append(data.instance(i).stringValue(a));
                else row.append(Double.toString(data.instance(i).value(a)));
            }
            System.out.println(row);
        }
        System.out.println("END");
    }
}
