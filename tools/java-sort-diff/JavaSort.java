// Sorts score lists with the JDK's own List.sort, the way Pulsar's AvgShedder did
// before apache/pulsar#24954: comparator (int) (s1 - s2).
//
// Input: one case per line, scores separated by spaces. Output: one line per case,
// the original positions in sorted order, or THROW when the JDK reports that the
// comparator violates its contract.
import java.io.BufferedReader;
import java.io.FileReader;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;

public class JavaSort {
    public static void main(String[] args) throws Exception {
        try (BufferedReader in = new BufferedReader(new FileReader(args[0]));
             PrintWriter out = new PrintWriter(args[1])) {
            String line;
            while ((line = in.readLine()) != null) {
                String[] words = line.trim().split(" ");
                List<double[]> scores = new ArrayList<>();
                for (int i = 0; i < words.length; i++) {
                    scores.add(new double[] {Double.parseDouble(words[i]), i});
                }
                StringBuilder row = new StringBuilder();
                try {
                    scores.sort((a, b) -> (int) (a[0] - b[0]));
                    for (double[] s : scores) {
                        if (row.length() > 0) {
                            row.append(' ');
                        }
                        row.append((int) s[1]);
                    }
                } catch (IllegalArgumentException contract) {
                    row.setLength(0);
                    row.append("THROW");
                }
                out.println(row);
            }
        }
    }
}
