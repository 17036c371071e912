class Sync {
    private final Object lock = new Object();
    private int hits;

    void hit() {
        synchronized (lock) {
            hits++;
        }
        synchronized (this.lock) { notifyAll(); }
    }
}
