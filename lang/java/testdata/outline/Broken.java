// path: Broken.java
package p.q;
import p.r.Helper;
public class Broken {
    private Helper helper;
    public void run() {
        helper.
    }
    /** Nested. */
    static class Inner extends Base implements Runnable {
        Inner(int x) {
            super(x);
        }
        public synchronized void run() { }
        List<String> items() {
            return null;
