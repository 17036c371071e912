class IfElse {
    int sign(int x) {
        if (x > 0) {
            return 1;
        } else if (x < 0) {
            return -1;
        } else {
            x = 0;
        }
        if (x == 0
                && flag)
            log(x);
        if (ready) go(); else stop();
        return x;
    }
}
