// path: tools/Default.java
import java.util.*;

class Default {
    int size() { return 0; }
    int size(int limit) { return limit; }
    static <T> T pick(T a, T b) { return a; }
    Runnable r = new Runnable() { public void run() {} };
    void m() {
        class Local { void x() {} }
    }
}

interface Shape extends Comparable<Shape>, Cloneable {
    int SIDES = 0;
    double area();
    default String name() { return "shape"; }
}
