package ledger;

import java.math.BigDecimal;
import java.util.HashMap;
import java.util.Map;

public class Ledger {
    private final Map<String, Account> accounts = new HashMap<>();

    public Account open(String name) {
        if (accounts.containsKey(name)) {
            throw new IllegalArgumentException("account exists: " + name);
        }
        Account account = new Account(name);
        accounts.put(name, account);
        return account;
    }

    public void transfer(String source, String target, BigDecimal amount) {
        Account src = accounts.get(source);
        Account dst = accounts.get(target);
        src.withdraw(amount);
        dst.deposit(amount);
    }

    public BigDecimal total() {
        BigDecimal total = BigDecimal.ZERO;
        for (Account account : accounts.values()) {
            total = total.add(account.getBalance());
        }
        return total;
    }
}
