package ledger;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;

public class Account {
    private final String name;
    private BigDecimal balance = BigDecimal.ZERO;
    private final List<String> history = new ArrayList<>();

    public Account(String name) {
        this.name = name;
    }

    public BigDecimal deposit(BigDecimal amount) {
        if (amount.signum() <= 0) {
            throw new IllegalArgumentException("deposit must be positive");
        }
        balance = balance.add(amount);
        history.add("deposit " + amount);
        return balance;
    }

    public BigDecimal withdraw(BigDecimal amount) {
        if (amount.signum() <= 0) {
            throw new IllegalArgumentException("withdrawal must be positive");
        }
        if (balance.compareTo(amount) < 0) {
            throw new IllegalStateException("insufficient funds in " + name);
        }
        balance = balance.subtract(amount);
        history.add("withdraw " + amount);
        return balance;
    }

    public String getName() {
        return name;
    }

    public BigDecimal getBalance() {
        return balance;
    }
}
