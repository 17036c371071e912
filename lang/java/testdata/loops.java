class Loops {
    void run(int[] data, List<Item> items) {
        for (int i = 0, j = data.length; i < j; i++, j--) {
            total += data[i];
        }
        for (Item item : items) {
            if (item == null) continue;
            use(item);
        }
        while (n > 0) {
            n--;
        }
        do {
            n = next(n);
        } while (n != 0);
        outer:
        for (int r = 0; r < rows; r++) {
            inner: while (true) {
                if (done(r)) break outer;
                if (skip(r)) continue outer;
                break inner;
            }
        }
        for (;;) break;
    }
}
