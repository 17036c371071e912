class Broken {
    void f() {
        int x = ;
        g(x;
        y = 2;
        } } }
        z = 3;
    }

    void h() {
        return 1 +* 2;
        for (int i = 0; i < ; i++) {
            work(i);
        }
    }
    String s = "unterminated;
}
