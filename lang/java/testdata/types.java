package demo;

@FunctionalInterface
public interface Shape extends Comparable<Shape> {
    double area();

    default String describe() {
        return "shape " + area();
    }
}

record Point(int x, int y) implements Shape {
    Point {
        if (x < 0) throw new IllegalArgumentException();
    }

    public double area() { return 0; }
}

enum Color {
    RED("r"), GREEN("g") {
        @Override String code() { return "G"; }
    };

    private final String code;

    Color(String code) { this.code = code; }

    String code() { return code; }
}

class Outer {
    static int created;

    static {
        created = 0;
    }

    {
        created++;
    }

    class Inner {
        int value;
    }

    void local() {
        class Helper {
            int help() { return 1; }
        }
        new Helper().help();
    }
}

@interface Marker {
    String value() default "";
}
