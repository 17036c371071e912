package com.acme.app;

import com.acme.Account;
import com.acme.Account.Inner;
import java.util.List;
import com.acme.util.*;

class App extends Missing {
    Account acc;

    void run() {
        acc.deposit(1);
    }
}
