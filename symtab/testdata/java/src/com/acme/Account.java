package com.acme;

import com.acme.util.Helper;
import static com.acme.util.Helper.help;

/** An account. */
public class Account extends Base implements Comparable<Account> {
    private Helper helper;

    public Account(String name) {}

    void deposit(int x) {}

    void deposit(long x) {}

    Helper helper() { return helper; }

    static class Inner {
        void inner() {}
    }
}
