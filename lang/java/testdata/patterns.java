class Patterns {
    int size(Object o) {
        if (o instanceof String s && !s.isEmpty()) {
            return s.length();
        }
        if (o instanceof Point(int x, var y)) {
            return x + y;
        }
        boolean big = o instanceof List<?> list && list.size() > 10;
        return big ? 1 : 0;
    }
}
