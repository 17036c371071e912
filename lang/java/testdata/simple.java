package demo.app;

import java.util.List;
import static java.lang.Math.max;
import java.io.*;

public class Counter extends Base {
    private int count = 0;
    static final int LIMIT = 10, STEP;
    private int[] cells = new int[LIMIT];

    Counter(int start) {
        super(start);
        this.count = start;
    }

    int add(int a, int b) throws Exception {
        int sum = a + b;
        sum += count;
        count++;
        --sum;
        cells[sum] = a;
        this.cells[0] += b;
        List<String> names;
        String s = helper.format(sum).trim();
        names = List.of(s);
        assert sum > 0 : "negative";
        log(this.count, Math.max(a, b), other.inner.value);
        ;
        return max(sum, LIMIT);
    }
}
