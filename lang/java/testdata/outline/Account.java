// path: src/com/acme/ledger/Account.java
package com.acme.ledger;

import java.util.List;
import java.util.Map.Entry;
import static java.lang.Math.max;
import static org.junit.Assert.*;
import com.acme.util.*;

/**
 * An account.
 */
@Entity
public class Account<T extends Number> extends Base<T> implements Comparable<Account>, java.io.Serializable {
    /** The rate. */
    public static final double RATE = 0.5, OTHER = 1;
    private List<String> names;
    Account(String name) { super(name); }
    /**
     * Deposits.
     * @param x amount
     */
    @Override
    public <R> R deposit(int x, String... rest) throws IOException {
        return null;
    }
    void deposit(long x) {}
    interface Listener { void on(Event e); }
    enum Kind { A, B(1) { void f() {} }; Kind() {} int code; }
    record Point(int x, int y) implements Shape { Point { } static int z; }
    @interface Marker { String value() default ""; }
}
