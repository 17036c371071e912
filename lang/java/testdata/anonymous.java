class Anonymous {
    Runnable make(int delay) {
        Runnable r = new Runnable() {
            int runs;

            @Override
            public void run() {
                runs++;
                sleep(delay);
            }
        };
        return new Thread(r) {
            public void run() { super.run(); }
        }.start();
    }
}
